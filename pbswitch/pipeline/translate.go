// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"fmt"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// Translation marks a value of a @p4runtime_translation type (P4Runtime
// 1.4 section 8.1.1 "Translation of port numbers" and the user-defined
// types of the P4Info): the controller speaks its SDN values, SDNBits
// wide (the p4info's bitwidth), and the server maps them to and from the
// data plane's, as wide as the program's type (the JSON's bitwidth).
//
// pbswitch's mapping is the identity: an SDN value is the data-plane value
// with the same number (its ports have one number on both sides), and an
// SDN value too wide for the data plane has no data-plane value and is
// refused. Translation to a string (sdn_string) is not implemented.
type Translation struct {
	URI       string
	SDNBits   int
	SDNString bool
}

// TranslationOf is the Translation of a p4info type name, nil when the type
// is not translated (or not a user-defined type).
func TranslationOf(info *p4info.P4Info, name *p4info.P4NamedType) *Translation {
	if name == nil {
		return nil
	}
	spec, ok := info.GetTypeInfo().GetNewTypes()[name.GetName()]
	if !ok || spec.GetTranslatedType() == nil {
		return nil
	}
	tt := spec.GetTranslatedType()
	return &Translation{URI: tt.GetUri(), SDNBits: int(tt.GetSdnBitwidth()), SDNString: tt.GetSdnString() != nil || tt.GetSdnBitwidth() == 0}
}

// FitTranslated is FitValue for a value the controller gives in tr's SDN
// form (tr nil: untranslated): it takes up to SDNBits bits and maps the
// value to the data plane's bits-wide value (the identity), refusing a
// value the data plane cannot hold.
func FitTranslated(v []byte, tr *Translation, bits int) ([]byte, error) {
	return AppendFitTranslated(make([]byte, 0, Width(bits)), v, tr, bits)
}

// AppendFitTranslated is FitTranslated appending the value to dst, as
// AppendFit does.
func AppendFitTranslated(dst, v []byte, tr *Translation, bits int) ([]byte, error) {
	if tr == nil {
		return AppendFit(dst, v, bits)
	}
	if _, err := FitValue(v, tr.SDNBits); err != nil {
		return nil, err
	}
	out, err := AppendFit(dst, v, bits)
	if err != nil {
		return nil, fmt.Errorf("SDN value 0x%x of translated type %s has no data-plane value (%d bits, mapped by identity)", v, tr.URI, bits)
	}
	return out, nil
}
