package mockapnstest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// appleHosts are Apple's APNs host names and the ports APNs serves each on: pushes on 443 and 2197, channel
// management on 2195 (sandbox) and 2196 (production).
var appleHosts = map[string][]int{
	"api.push.apple.com":                          {443, 2197},
	"api.sandbox.push.apple.com":                  {443, 2197},
	"api.development.push.apple.com":              {443, 2197},
	"api-manage-broadcast.sandbox.push.apple.com": {2195},
	"api-manage-broadcast.push.apple.com":         {2196},
}

// Transport returns an HTTP/2 transport for a sender with Apple's URLs hard-coded: connections to Apple's host names
// (https://api.push.apple.com, api.sandbox.push.apple.com, api.development.push.apple.com on 443 or 2197;
// api-manage-broadcast.sandbox.push.apple.com:2195 and api-manage-broadcast.push.apple.com:2196) go to the mock,
// whose certificate carries those names, and its CA is trusted beside the system's roots. With WithFCM, Google's
// fcm.googleapis.com, oauth2.googleapis.com and iid.googleapis.com on 443 go to its FCM front door the same way, and
// mock.FCMURL() is trusted too. Any other host is dialled as usual (through the environment's proxy, if any); any
// other port of those names is refused. It needs a mock started with WithAppleHosts or WithFCM; its idle
// connections are closed when the test ends.
//
// For sideshow/apns2: client.HTTPClient = mock.HTTPClient(), and client.Host stays apns2.HostProduction or
// apns2.HostDevelopment. For firebase-admin-go: the kit's README.
func (m *Mock) Transport() *http.Transport {
	m.tb.Helper()
	if m.applePorts == nil && m.fcm == nil {
		m.tb.Fatalf("mockapnstest: Transport and HTTPClient route Apple's host names to the mock, which serves them only " +
			"when started with Start(t, mockapnstest.WithAppleHosts()), and Google's FCM names, with " +
			"Start(t, mockapnstest.WithFCM()); use Client() to send to mock.URL instead")
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	roots.AppendCertsFromPEM(m.caPEM)
	if m.fcm != nil {
		roots.AppendCertsFromPEM(m.fcm.caPEM)
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	proxy := http.ProxyFromEnvironment
	transport := &http.Transport{
		Proxy: func(req *http.Request) (*url.URL, error) {
			if _, _, routed := m.served(canonicalHost(req.URL.Hostname())); routed {
				return nil, nil
			}
			return proxy(req)
		},
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			routed, err := m.route(network, addr)
			if err != nil {
				return nil, err
			}
			return dialer.DialContext(ctx, network, routed)
		},
		// The transport does TLS itself with the request's host name as ServerName, so the mock's certificate is
		// checked against Apple's name. A custom DialContext turns HTTP/2 off unless forced.
		TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		TLSHandshakeTimeout: 10 * time.Second,
		IdleConnTimeout:     90 * time.Second,
	}
	m.tb.Cleanup(transport.CloseIdleConnections)
	return transport
}

// HTTPClient returns an http.Client on Transport(): what to give a sender whose URLs are Apple's.
func (m *Mock) HTTPClient() *http.Client {
	m.tb.Helper()
	return &http.Client{Transport: m.Transport(), Timeout: 30 * time.Second}
}

// served says whether this mock serves name (Apple's with WithAppleHosts, Google's with WithFCM): the ports it is
// served on, and the service's port → where the mock listens.
func (m *Mock) served(name string) ([]int, map[int]int, bool) {
	if ports, apple := appleHosts[name]; apple && m.applePorts != nil {
		return ports, m.applePorts, true
	}
	if ports, google := googleHosts[name]; google && m.fcm != nil {
		return ports, m.fcm.ports, true
	}
	return nil, nil, false
}

// route maps addr (host:port) of one of the names the mock serves to where the mock listens for that port; other
// addresses are returned as they are.
func (m *Mock) route(network, addr string) (string, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, nil
	}
	name := canonicalHost(host)
	served, listeners, routed := m.served(name)
	if !routed {
		return addr, nil
	}
	port, _ := strconv.Atoi(portText)
	for _, p := range served {
		if p == port {
			mock, err := url.Parse(m.URL)
			if err != nil {
				return "", err
			}
			return net.JoinHostPort(mock.Hostname(), strconv.Itoa(listeners[p])), nil
		}
	}
	var ports []string
	for _, p := range served {
		ports = append(ports, strconv.Itoa(p))
	}
	service := "APNs"
	if _, google := googleHosts[name]; google {
		service = "Google"
	}
	return "", &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%w: %s serves %s on port %s only, so the mock "+
		"does too (this transport refuses port %s)", syscall.ECONNREFUSED, service, name, strings.Join(ports, " and "), portText)}
}

// canonicalHost is a host name as appleHosts and googleHosts key it: lowercase, without a trailing dot.
func canonicalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}
