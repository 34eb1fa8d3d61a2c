// Client addresses: who a request comes from, through the proxies the server trusts.

package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"

	"github.com/realclientip/realclientip-go"
)

// clientFinder tells a request's client address. A request from a trusted
// proxy (--trusted-proxies) names its client in Forwarded or
// X-Forwarded-For: the rightmost address there that is not a trusted
// proxy's (the one the first trusted hop saw; the others can be written by
// anyone). Any other request's client is its connection's peer.
type clientFinder struct {
	trusted   []netip.Prefix
	forwarded realclientip.RightmostTrustedRangeStrategy
	xff       realclientip.RightmostTrustedRangeStrategy
}

// newClientFinder returns the finder trusting the proxies at the
// prefixes (none: every client is its peer).
func newClientFinder(trusted []netip.Prefix) (*clientFinder, error) {
	c := &clientFinder{trusted: trusted}
	if len(trusted) == 0 {
		return c, nil
	}
	nets := make([]net.IPNet, len(trusted))
	for i, p := range trusted {
		nets[i] = net.IPNet{IP: p.Masked().Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
	}
	var err error
	if c.forwarded, err = realclientip.NewRightmostTrustedRangeStrategy("Forwarded", nets); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	if c.xff, err = realclientip.NewRightmostTrustedRangeStrategy("X-Forwarded-For", nets); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	return c, nil
}

// addr returns the client address of r: its peer's, or through trusted
// proxies the one they forwarded. A request whose peer is no address (a
// test's) is named by its RemoteAddr text.
func (c *clientFinder) addr(r *http.Request) (netip.Addr, string) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, r.RemoteAddr
	}
	peer := ap.Addr().Unmap()
	if !c.isTrusted(peer) {
		return peer, ""
	}
	for _, s := range []realclientip.RightmostTrustedRangeStrategy{c.forwarded, c.xff} {
		if text := s.ClientIP(r.Header, ""); text != "" {
			if a, err := netip.ParseAddr(text); err == nil {
				return a.Unmap().WithZone(""), ""
			}
		}
	}
	return peer, "" // every hop is trusted, or none named the client
}

func (c *clientFinder) isTrusted(a netip.Addr) bool {
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// of names the client of r as the per-address limits count it: its
// address, or for IPv6 its /64 network (what one subscriber is usually
// given).
func (c *clientFinder) of(r *http.Request) string {
	a, text := c.addr(r)
	if !a.IsValid() {
		return text
	}
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.String()
		}
	}
	return a.String()
}

// ParseTrustedProxies reads --trusted-proxies: comma-separated addresses
// and CIDR prefixes ("10.0.0.0/8,192.0.2.7").
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
