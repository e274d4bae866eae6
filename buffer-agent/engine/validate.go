// SPDX-License-Identifier: Apache-2.0

package engine

import "strings"

const (
	maxIDLen        = 64
	maxAppIDLen     = 128
	maxIfNameLen    = 15 // IFNAMSIZ - 1
	defaultClasses  = 8
	defaultBuckets  = 10
	maxBuckets      = 1000
	defaultBucketUs = 1000
	maxBucketUs     = 10_000_000
)

func checkApp(app string) error {
	if app == "" {
		return errorf(InvalidArgument, "app_id is required")
	}
	if len(app) > maxAppIDLen {
		return errorf(InvalidArgument, "app_id longer than %d bytes", maxAppIDLen)
	}
	return nil
}

// checkID enforces the proto's id rule, [A-Za-z0-9._:-]{1,64}.
func checkID(field, id string) error {
	if id == "" {
		return errorf(InvalidArgument, "%s is required", field)
	}
	if len(id) > maxIDLen {
		return errorf(InvalidArgument, "%s longer than %d characters", field, maxIDLen)
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == ':' || c == '-'
		if !ok {
			return errorf(InvalidArgument, "%s %q has a character outside [A-Za-z0-9._:-]", field, id)
		}
	}
	return nil
}

// normalizeBufferConfig validates cfg against the limits and fills defaults,
// so that equal intents compare equal (idempotent create).
func normalizeBufferConfig(cfg BufferConfig, l Limits) (BufferConfig, error) {
	if cfg.CapacityBytes == 0 && cfg.CapacityPackets == 0 {
		return cfg, errorf(InvalidArgument, "capacity_bytes or capacity_packets must be set")
	}
	if cfg.CapacityBytes > l.MaxBufferBytes {
		return cfg, errorf(InvalidArgument, "capacity_bytes %d above the agent maximum %d", cfg.CapacityBytes, l.MaxBufferBytes)
	}
	if cfg.CapacityPackets > l.MaxBufferPackets {
		return cfg, errorf(InvalidArgument, "capacity_packets %d above the agent maximum %d", cfg.CapacityPackets, l.MaxBufferPackets)
	}
	if cfg.Queue == 0 {
		cfg.Queue = QueueFIFO
	}
	if cfg.Overflow == 0 {
		cfg.Overflow = DropTail
	}
	if cfg.Overflow != DropTail && cfg.Overflow != DropHead {
		return cfg, errorf(InvalidArgument, "unknown overflow policy %d", cfg.Overflow)
	}
	switch cfg.Queue {
	case QueueFIFO:
		cfg.Priority, cfg.Arq = PriorityConfig{}, ArqConfig{}
	case QueuePriority:
		cfg.Arq = ArqConfig{}
		p, err := normalizePriority(cfg.Priority)
		if err != nil {
			return cfg, err
		}
		cfg.Priority = p
	case QueueARQ:
		cfg.Priority = PriorityConfig{}
		a, err := normalizeArq(cfg.Arq)
		if err != nil {
			return cfg, err
		}
		if a.Protocol == ArqPDCP && cfg.Overflow != DropTail {
			return cfg, errorf(InvalidArgument, "a PDCP ARQ buffer drops tail only (the radio already has the packet it would push out)")
		}
		cfg.Arq = a
	default:
		return cfg, errorf(InvalidArgument, "unknown queue type %d", cfg.Queue)
	}
	return cfg, nil
}

func normalizePriority(p PriorityConfig) (PriorityConfig, error) {
	if p.Classes == 0 {
		p.Classes = defaultClasses
	}
	if p.Classes > 8 {
		return p, errorf(InvalidArgument, "priority classes %d outside 1..8", p.Classes)
	}
	if p.Field == 0 {
		p.Field = FieldIPDSCP
	}
	if p.Field != FieldIPDSCP && p.Field != FieldVLANPCP {
		return p, errorf(InvalidArgument, "unknown priority field %d", p.Field)
	}
	return p, nil
}

func normalizeArq(a ArqConfig) (ArqConfig, error) {
	if a.Buckets == 0 {
		a.Buckets = defaultBuckets
	}
	if a.Buckets > maxBuckets {
		return a, errorf(InvalidArgument, "arq buckets %d outside 1..%d", a.Buckets, maxBuckets)
	}
	if a.BucketUs == 0 {
		a.BucketUs = defaultBucketUs
	}
	if a.BucketUs > maxBucketUs {
		return a, errorf(InvalidArgument, "arq bucket_us %d above %d", a.BucketUs, maxBucketUs)
	}
	if a.Protocol == 0 {
		a.Protocol = ArqIPv4
	}
	if a.Protocol != ArqIPv4 && a.Protocol != ArqPDCP {
		return a, errorf(InvalidArgument, "unknown arq protocol %d", a.Protocol)
	}
	return a, nil
}

func checkVportConfig(cfg VportConfig) error {
	if !cfg.Mode.valid() {
		return errorf(InvalidArgument, "vport mode %d is not NONE, RX, TX or RX_TX", cfg.Mode)
	}
	if cfg.Tag > MaxTag {
		return errorf(InvalidArgument, "tag %d is out of range 1..%d (0: untagged)", cfg.Tag, MaxTag)
	}
	switch cfg.Backend.Kind {
	case BackendLinuxInterface:
		if err := checkIfName("interface", cfg.Backend.Interface); err != nil {
			return err
		}
		if cfg.Backend.CreateVethPeer != "" {
			if err := checkIfName("create_veth_peer", cfg.Backend.CreateVethPeer); err != nil {
				return err
			}
			if cfg.Backend.CreateVethPeer == cfg.Backend.Interface {
				return errorf(InvalidArgument, "create_veth_peer equals interface %q", cfg.Backend.Interface)
			}
		}
	case BackendInProcess:
	default:
		return errorf(InvalidArgument, "a vport backend is required")
	}
	return nil
}

// checkIfName follows the kernel's dev_valid_name rules.
func checkIfName(field, name string) error {
	if name == "" {
		return errorf(InvalidArgument, "%s is required", field)
	}
	if len(name) > maxIfNameLen || name == "." || name == ".." ||
		strings.ContainsAny(name, "/: \t\n\x00") {
		return errorf(InvalidArgument, "%s %q is not a valid interface name", field, name)
	}
	return nil
}

// sameBackendTarget reports whether two specs would drive the same port.
func sameBackendTarget(a, b BackendSpec) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == BackendInProcess {
		return a.Port == b.Port
	}
	return a.Interface == b.Interface || a.Interface == b.CreateVethPeer ||
		(a.CreateVethPeer != "" && (a.CreateVethPeer == b.Interface || a.CreateVethPeer == b.CreateVethPeer))
}
