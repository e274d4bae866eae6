// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Layout of struct tpacket2_hdr (linux/if_packet.h).
const (
	hdrStatus   = 0
	hdrLen      = 4
	hdrSnaplen  = 8
	hdrMac      = 12
	hdrVlanTCI  = 24
	hdrVlanTPID = 26
	// TX data starts at TPACKET2_HDRLEN - sizeof(struct sockaddr_ll).
	txDataOffset = 32
)

// With PACKET_VNET_HDR, a struct virtio_net_hdr (linux/virtio_net.h)
// precedes each frame: in a TX slot the socket writes it before the frame;
// in an RX slot the kernel writes it before tp_mac, which Recv reads
// from, so the receive side does not look at it.
const (
	vnetHdrLen    = 10
	vnetHdrHdrLen = 2 // hdr_len: bytes the kernel copies into the skb's linear part
	// txLinearMax is the largest frame sent whole in the skb's linear
	// part. Without a virtio-net header the kernel copies only the
	// Ethernet header and attaches the rest of the TX slot's page as a
	// fragment (zero copy); a veth must then copy that fragment into a new
	// page to hand the skb to its peer (skb_copy_ubufs: a page allocated,
	// copied and freed a frame). A larger frame keeps the fragment: its
	// copy is paid over more bytes, and a NIC sends it from the ring.
	txLinearMax = 1536
)

// putVnetHdr writes the virtio-net header of an n-byte frame into hdr: no
// checksum offload, no segmentation, and a frame of up to txLinearMax bytes
// copied whole into the skb. Its 16-bit fields are in host byte order
// (virtio's legacy order for the host's own packet sockets).
func putVnetHdr(hdr []byte, n int) {
	clear(hdr[:vnetHdrLen])
	if n <= txLinearMax {
		*(*uint16)(unsafe.Pointer(&hdr[vnetHdrHdrLen])) = uint16(n)
	}
}

// ring is one TPACKET_V2 ring inside the socket's mapping: frameNr slots of
// frameSize bytes, each starting with a tpacket2_hdr whose status word is
// the hand-off between kernel and user space.
type ring struct {
	mem       []byte
	frameSize int
	frameNr   int
	next      int
}

// ringGeometry sizes a ring of about frames slots for frames of up to mtu
// bytes (plus Ethernet header, two VLAN tags and the slot header).
func ringGeometry(mtu, frames int) unix.TpacketReq {
	need := mtu + 14 + 8 + 128
	size := 512
	for size < need {
		size *= 2
	}
	block := max(size, 1<<16)
	perBlock := block / size
	blocks := max(1, frames/perBlock)
	return unix.TpacketReq{
		Block_size: uint32(block), Block_nr: uint32(blocks),
		Frame_size: uint32(size), Frame_nr: uint32(blocks * perBlock),
	}
}

func (r *ring) bytes() int { return r.frameSize * r.frameNr }

func (r *ring) slot(i int) []byte { return r.mem[i*r.frameSize : (i+1)*r.frameSize] }

// The status word is shared with the kernel: atomic accesses keep the
// compiler from caching or reordering it around the frame copies.
func status(s []byte) uint32 { return atomic.LoadUint32((*uint32)(unsafe.Pointer(&s[hdrStatus]))) }

func setStatus(s []byte, v uint32) {
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&s[hdrStatus])), v)
}

// Header fields are in host byte order.
func u32(s []byte, off int) uint32 { return *(*uint32)(unsafe.Pointer(&s[off])) }
func u16(s []byte, off int) uint16 { return *(*uint16)(unsafe.Pointer(&s[off])) }

func putU32(s []byte, off int, v uint32) { *(*uint32)(unsafe.Pointer(&s[off])) = v }
