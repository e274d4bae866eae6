// SPDX-License-Identifier: Apache-2.0

package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/server"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

type pki struct {
	caCert *x509.Certificate
	caKey  *ecdsa.PrivateKey
	dir    string
}

func newPKI(t *testing.T) *pki {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "flowbuf test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := &pki{caCert: cert, caKey: key, dir: t.TempDir()}
	p.write(t, "ca.pem", "CERTIFICATE", der)
	return p
}

func (p *pki) write(t *testing.T, name, typ string, der []byte) string {
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// issue writes a leaf certificate and key signed by the CA.
func (p *pki) issue(t *testing.T, name string, serial int64, usage x509.ExtKeyUsage) (string, string) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	return p.write(t, name+".pem", "CERTIFICATE", der), p.write(t, name+"-key.pem", "EC PRIVATE KEY", kder)
}

func TestMTLSRefusesClientsWithoutCertificate(t *testing.T) {
	p := newPKI(t)
	cert, key := p.issue(t, "agent", 2, x509.ExtKeyUsageServerAuth)
	tc, err := server.MTLSConfig(cert, key, filepath.Join(p.dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Options{})
	defer eng.Close()
	g := grpc.NewServer(grpc.Creds(credentials.NewTLS(tc)))
	server.New(eng, server.Options{MTLS: true}).Register(g)
	lis, _ := net.Listen("tcp", "127.0.0.1:0")
	go g.Serve(lis)
	defer g.Stop()

	roots := x509.NewCertPool()
	roots.AddCert(p.caCert)
	call := func(certs []tls.Certificate) error {
		creds := credentials.NewTLS(&tls.Config{RootCAs: roots, Certificates: certs, MinVersion: tls.VersionTLS12})
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(creds))
		if err != nil {
			return err
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := pb.NewBufferAgentClient(conn).GetCapabilities(ctx, &pb.GetCapabilitiesRequest{AppId: "a"})
		if err == nil && !c.GetMtls() {
			t.Error("capabilities do not report mTLS")
		}
		return err
	}
	if err := call(nil); err == nil {
		t.Fatal("a client without a certificate was served")
	}
	ccert, ckey := p.issue(t, "controller", 3, x509.ExtKeyUsageClientAuth)
	pair, err := tls.LoadX509KeyPair(ccert, ckey)
	if err != nil {
		t.Fatal(err)
	}
	if err := call([]tls.Certificate{pair}); err != nil {
		t.Fatalf("client with a valid certificate refused: %v", err)
	}
}
