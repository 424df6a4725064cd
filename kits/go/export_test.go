package mockapnstest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"
)

// SetReadyTimeout shortens how long Start waits for the ready file; it returns a function that restores it.
func SetReadyTimeout(d time.Duration) (restore func()) {
	old := readyTimeout
	readyTimeout = d
	return func() { readyTimeout = old }
}

// ContainerEngine is the engine the kit picks for container mode, from $MOCKAPNS_CONTAINER_ENGINE and PATH.
func ContainerEngine() (string, error) {
	return findEngine(os.Getenv("MOCKAPNS_CONTAINER_ENGINE"), os.Getenv("MOCKAPNS_IMAGE"))
}

// TokenReuse is how long Token hands out the same provider token.
func TokenReuse() time.Duration { return tokenReuse }

// SetClock makes the kit's clock (Token's reuse) read now; it returns a function that restores it.
func SetClock(now func() time.Time) (restore func()) {
	old := clock
	clock = now
	return func() { clock = old }
}

// KeyFile is the .p8 file of m.Key, which Token has the binary sign with.
func KeyFile(m *Mock) string { return m.keyFile }

// ReadyFile is m's ready file as the mock wrote it: the binary's, or the container's $MOCKAPNS_READY_FILE.
func ReadyFile(m *Mock) ([]byte, error) {
	switch s := m.server.(type) {
	case *processServer:
		return s.ready, nil
	case *containerServer:
		out, err := s.engineRun(nil, "exec", s.name, "sh", "-c", `cat "$MOCKAPNS_READY_FILE"`)
		return []byte(out), err
	}
	return nil, fmt.Errorf("a server of type %T", m.server)
}

// ControlRequest is one request the kit sent to the control API.
type ControlRequest struct {
	Method, Path string
	Query        url.Values
	Body         []byte
}

// recorder is the control client's transport while a test records what the kit sends.
type recorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	sent []ControlRequest
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	r.mu.Lock()
	r.sent = append(r.sent, ControlRequest{Method: req.Method, Path: req.URL.Path, Query: req.URL.Query(), Body: body})
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

func (r *recorder) CloseIdleConnections() {
	if closer, ok := r.base.(interface{ CloseIdleConnections() }); ok {
		closer.CloseIdleConnections()
	}
}

// RecordControl records every control-API request m sends from now on; the function returns them so far.
func RecordControl(m *Mock) func() []ControlRequest {
	r := &recorder{base: m.control.Transport}
	m.control.Transport = r
	return func() []ControlRequest {
		r.mu.Lock()
		defer r.mu.Unlock()
		return append([]ControlRequest(nil), r.sent...)
	}
}
