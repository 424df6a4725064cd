package mockapnstest

import (
	"errors"
	"os"
)

// Option changes how Start runs the mock: Start(t, WithAppleHosts(), WithArgs("--environment", "production")).
type Option func(*config)

// config is what the options and the environment ask for.
type config struct {
	args       []string
	binary     string
	image      string
	engine     string
	appleHosts bool
	fcm        bool
}

// WithArgs adds `mockapns serve` flags, e.g. WithArgs("--environment", "production"); in container mode they follow
// `serve` in the container's command.
func WithArgs(args ...string) Option {
	return func(c *config) { c.args = append(c.args, args...) }
}

// WithBinary runs this mockapns binary, whatever MOCKAPNS_BIN and MOCKAPNS_IMAGE say.
func WithBinary(path string) Option {
	return func(c *config) { c.binary = path }
}

// WithImage runs the mock from this container image (e.g. "mockapns:latest", which `make image` builds) with podman
// or docker instead of a local binary, as MOCKAPNS_IMAGE does.
func WithImage(image string) Option {
	return func(c *config) { c.image = image }
}

// WithContainerEngine names the container engine of container mode ("podman", "docker" or a path), as
// MOCKAPNS_CONTAINER_ENGINE does; by default podman or docker, whichever is on PATH, and with both the one that
// answers (podman first).
func WithContainerEngine(engine string) Option {
	return func(c *config) { c.engine = engine }
}

// WithAppleHosts serves Apple's own host names (api.push.apple.com, api.sandbox.push.apple.com, …) under a private CA
// made for this mock, so a sender with Apple's URLs hard-coded reaches the mock through Transport or HTTPClient.
func WithAppleHosts() Option {
	return func(c *config) { c.appleHosts = true }
}

// WithFCM also serves Firebase Cloud Messaging HTTP v1 (`mockapns serve --fcm`, MOCKAPNS_FCM=1 in the image): at
// Mock.FCMURL, for senders given an endpoint (firebase-admin-go's option.WithEndpoint), and under Google's names
// (fcm.googleapis.com, oauth2.googleapis.com, iid.googleapis.com), which Transport and HTTPClient route to it, under
// a private CA made for this mock, with a service account it trusts (Mock.FCMServiceAccount).
func WithFCM() Option {
	return func(c *config) { c.fcm = true }
}

// WithHTTP1 does nothing: plain HTTP/1.1 APNs requests (no TLS) are always served at Mock.HTTP1URL, in both modes
// (kits/spec/launch.json).
//
// Deprecated: drop the option; HTTP/1.1 is always on.
func WithHTTP1() Option {
	return func(*config) {}
}

// newConfig applies the options over the environment: MOCKAPNS_IMAGE selects container mode unless WithBinary says
// which binary to run.
func newConfig(options []Option) (*config, error) {
	c := &config{}
	for _, option := range options {
		option(c)
	}
	if c.binary != "" && c.image != "" {
		return nil, errors.New("WithBinary and WithImage were both given: pass one (a local binary, or an image run by podman or docker)")
	}
	if c.binary == "" && c.image == "" {
		c.image = os.Getenv("MOCKAPNS_IMAGE")
	}
	if c.engine == "" {
		c.engine = os.Getenv("MOCKAPNS_CONTAINER_ENGINE")
	}
	return c, nil
}
