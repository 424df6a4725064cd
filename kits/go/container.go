package mockapnstest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Ports of `mockapns serve` inside the image (kits/spec/launch.json): APNs, the control plane and the mock's own FCM
// port are the image's defaults; the kit turns on plain HTTP/1.1 on http1ContainerPort (beside the FCM port).
const (
	apnsContainerPort    = 2197
	controlContainerPort = 2198
	fcmContainerPort     = 2199
	http1ContainerPort   = 2200
	// imageCertsDir holds the test credentials the image's mockapns trusts: certs/ beside the binary
	// (Containerfile unpacks the release tarball into /opt/mockapns).
	imageCertsDir = "/opt/mockapns/certs"
	// containerLabel marks every container the kit starts, and ownerLabel the test process that started it:
	// `podman rm -f $(podman ps -aq --filter label=io.mockapns.kit)` removes any a killed test process left.
	containerLabel = "io.mockapns.kit"
	ownerLabel     = "io.mockapns.pid"
	// engineTimeout bounds one engine command, so an engine that hangs fails the test instead.
	engineTimeout = 2 * time.Minute
)

// containerServer is the mock running from an image under podman or docker, with its ports published on free
// loopback ports.
type containerServer struct {
	tb     testing.TB
	engine string // the engine's executable
	image  string
	name   string
}

// findEngine returns the container engine's executable: explicit (WithContainerEngine or
// $MOCKAPNS_CONTAINER_ENGINE) when given, else podman or docker, whichever is on PATH. With both on PATH it is the
// one that answers (`info`), podman first: on a Mac, podman may be installed with its machine stopped while Docker
// Desktop runs. When neither answers it is podman, whose own error then says why.
func findEngine(explicit, image string) (string, error) {
	if explicit != "" {
		path, err := exec.LookPath(explicit)
		if err != nil {
			return "", fmt.Errorf("the container engine %q (WithContainerEngine or MOCKAPNS_CONTAINER_ENGINE) is not an "+
				"executable on PATH (%v): name podman or docker, or a path to one", explicit, err)
		}
		return path, nil
	}
	var found []string
	for _, name := range []string{"podman", "docker"} {
		if path, err := exec.LookPath(name); err == nil {
			found = append(found, path)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 2:
		return answeringEngine(found), nil
	}
	return "", fmt.Errorf("the mock should run from the image %s (MOCKAPNS_IMAGE or WithImage), but neither podman nor "+
		"docker is on PATH. Either install one (or set MOCKAPNS_CONTAINER_ENGINE to its path), or run the mockapns "+
		"binary instead: unset MOCKAPNS_IMAGE and set MOCKAPNS_BIN=/path/to/mockapns (or put it on PATH)", image)
}

// engineProbeTimeout bounds one `info` of answeringEngine: a first podman start sets up its storage.
const engineProbeTimeout = 15 * time.Second

var (
	answeringMu     sync.Mutex
	answeringPicked = map[string]string{} // PATH, DOCKER_HOST and CONTAINER_HOST → the engine picked for them
)

// answeringEngine returns the first of engines whose `info` succeeds (asked once per PATH, DOCKER_HOST and
// CONTAINER_HOST in a test process), else the first.
func answeringEngine(engines []string) string {
	key := os.Getenv("PATH") + "\x00" + os.Getenv("DOCKER_HOST") + "\x00" + os.Getenv("CONTAINER_HOST")
	answeringMu.Lock()
	defer answeringMu.Unlock()
	if picked, ok := answeringPicked[key]; ok {
		return picked
	}
	picked := engines[0]
	for _, engine := range engines {
		ctx, cancel := context.WithTimeout(context.Background(), engineProbeTimeout)
		err := exec.CommandContext(ctx, engine, "info").Run()
		cancel()
		if err == nil {
			picked = engine
			break
		}
	}
	answeringPicked[key] = picked
	return picked
}

// enginesOnPath says which container engines the no-binary error can point at.
func enginesOnPath() string {
	var found []string
	for _, name := range []string{"podman", "docker"} {
		if _, err := exec.LookPath(name); err == nil {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return "; neither podman nor docker is on PATH"
	}
	return "; " + strings.Join(found, " and ") + " found on PATH"
}

// startContainer runs the image with the ports published on free loopback ports and waits until its control plane
// answers /healthz; it returns the server as soon as a container may exist (so the caller's cleanup removes it
// whatever happens next), the endpoints, and a folder with the test credentials copied out of the image.
func startContainer(t testing.TB, c *config, controlToken string) (*containerServer, readyFile, string, error) {
	engine, err := findEngine(c.engine, c.image)
	if err != nil {
		return nil, readyFile{}, "", err
	}
	suffix, err := randomHex(6)
	if err != nil {
		return nil, readyFile{}, "", err
	}
	s := &containerServer{tb: t, engine: engine, image: c.image, name: "mockapnstest-" + suffix}
	t.Cleanup(s.stop)

	args := runArguments(c, s.name, os.Getpid())
	// The token goes through the engine's environment (-e NAME), so it is not on any command line.
	if _, err := s.engineRun(append(os.Environ(), "MOCKAPNS_CONTROL_TOKEN="+controlToken), args...); err != nil {
		return s, readyFile{}, "", s.failure(fmt.Sprintf("could not be started: %v", err),
			"build or pull the image (`make image` builds mockapns:latest), check that the engine works ("+
				filepath.Base(engine)+" info), or unset MOCKAPNS_IMAGE to run the mockapns binary")
	}

	published, err := s.publishedPorts()
	if err != nil {
		return s, readyFile{}, "", s.failure(err.Error(), "")
	}
	host := func(port int) string { return "127.0.0.1:" + strconv.Itoa(published[port]) }
	ready := readyFile{APNsURL: "https://" + host(apnsContainerPort), ControlURL: "http://" + host(controlContainerPort)}
	ready.HTTP1URL = "http://" + host(http1ContainerPort)
	// The HTTP/1.1 endpoint starts after the control plane, so /healthz alone does not say it listens, and a request
	// to it would be recorded: the container's ready file, written once every listener is up, says it.
	waits := []endpoint{
		{"the control plane's /healthz", ready.ControlURL + "/healthz", func() error {
			_, err := get(ready.ControlURL + "/healthz")
			return err
		}},
		{"the container's ready file", "$MOCKAPNS_READY_FILE", s.readyFileNames("http1_url")},
	}
	if c.appleHosts {
		ready.ApplePorts = map[string]int{"443": published[443], "2197": published[apnsContainerPort],
			"2195": published[2195], "2196": published[2196]}
	}
	if c.fcm {
		ready.FCMURL = "https://" + host(fcmContainerPort)
		ready.FCMPorts = map[string]int{"443": published[fcmContainerPort]}
	}
	if err := s.waitReady(waits); err != nil {
		return s, ready, "", err
	}

	dir := t.TempDir()
	ca, err := get(ready.ControlURL + "/api/v1/ca.pem")
	if err != nil {
		return s, ready, "", s.failure("answered /healthz but not GET /api/v1/ca.pem: "+err.Error(), "")
	}
	ready.CAFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ready.CAFile, ca, 0o600); err != nil {
		return s, ready, "", err
	}
	if c.fcm {
		// The FCM listeners start after the control plane, and the engine's forwarder accepts a connection before
		// they listen: only a verified handshake says the front door is up (and chains to the CA read above).
		ready.FCMCAFile = ready.CAFile
		if err := s.waitTLS(published[fcmContainerPort], "fcm.googleapis.com", ca); err != nil {
			return s, ready, "", err
		}
	}
	// The keys the image's mockapns trusts, whichever certs/ the test machine has.
	certsDir := filepath.Join(dir, "certs")
	if _, err := s.engineRun(nil, "cp", s.name+":"+imageCertsDir, certsDir); err != nil {
		return s, ready, "", s.failure("holds no test credentials at "+imageCertsDir+": "+err.Error(),
			"use an image built by `make image` from this repository")
	}
	return s, ready, certsDir, nil
}

// runArguments is `<engine> run …` as kits/spec/launch.json's container cases have it: the image with HTTP/1.1 on,
// Apple's names (WithAppleHosts) and the FCM port (WithFCM), every port published on a free loopback port, the
// control token passed by name from the engine's environment, then `serve` and the test's own flags (WithArgs).
func runArguments(c *config, name string, pid int) []string {
	// --pull=never: a missing image is an error at once, not a download attempt; no --rm, so a container that dies
	// keeps its output for the error, and stop removes it.
	args := []string{"run", "-d", "--pull=never", "--name", name, "--label", containerLabel + "=go",
		"--label", ownerLabel + "=" + strconv.Itoa(pid), "-e", "MOCKAPNS_CONTROL_TOKEN",
		"-e", "MOCKAPNS_HTTP1_HOST=0.0.0.0", "-e", "MOCKAPNS_HTTP1_PORT=" + strconv.Itoa(http1ContainerPort)}
	ports := []int{apnsContainerPort, controlContainerPort, http1ContainerPort}
	if c.appleHosts {
		// Apple's ports inside the container, whatever the image's defaults, so the published ones are known.
		args = append(args, "-e", "MOCKAPNS_APPLE_HOSTS=1", "-e", "MOCKAPNS_APPLE_HTTPS_PORT=443",
			"-e", "MOCKAPNS_MANAGE_SANDBOX_PORT=2195", "-e", "MOCKAPNS_MANAGE_PRODUCTION_PORT=2196")
		ports = append(ports, 443, 2195, 2196)
	}
	if c.fcm {
		// Only the mock's own FCM port is published: it serves Google's three names too (its certificate carries
		// them), so Transport routes them there. Google's 443 inside the container goes to a free port, where it
		// cannot collide with Apple's 443.
		args = append(args, "-e", "MOCKAPNS_FCM=1", "-e", "MOCKAPNS_FCM_PORT="+strconv.Itoa(fcmContainerPort),
			"-e", "MOCKAPNS_FCM_HTTPS_PORT=0")
		ports = append(ports, fcmContainerPort)
	}
	for _, port := range ports {
		args = append(args, "-p", "127.0.0.1::"+strconv.Itoa(port))
	}
	return append(append(args, c.image, "serve"), c.args...)
}

// providerToken runs the image's `mockapns token` in the container (the key it signs with by default is the one the
// kit copied out of the image).
func (s *containerServer) providerToken(SigningKey, string) (string, error) {
	args := []string{"exec", s.name, "mockapns", "token", "--json"}
	out, err := s.engineRun(nil, args...)
	return mintedToken(filepath.Base(s.engine)+" "+strings.Join(args, " "), []byte(out), err)
}

// readyFileNames checks that the container's ready file ($MOCKAPNS_READY_FILE) is written and names field.
func (s *containerServer) readyFileNames(field string) func() error {
	return func() error {
		out, err := s.engineRun(nil, "exec", s.name, "sh", "-c", `cat "$MOCKAPNS_READY_FILE"`)
		if err != nil {
			return err
		}
		var ready map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &ready); err != nil {
			return fmt.Errorf("not written yet: %v", err)
		}
		if _, ok := ready[field]; !ok {
			return fmt.Errorf("it names no %s: the image's mockapns ignores MOCKAPNS_HTTP1_PORT? %.200s", field, out)
		}
		return nil
	}
}

// endpoint is one thing the container must answer before it is ready (check is nil once it does), and where.
type endpoint struct {
	what, where string
	check       func() error
}

// waitReady polls each endpoint in turn until it answers, while the container runs and readyTimeout has not passed.
func (s *containerServer) waitReady(endpoints []endpoint) error {
	deadline := time.Now().Add(readyTimeout)
	for len(endpoints) > 0 {
		next := endpoints[0]
		err := next.check()
		if err == nil {
			endpoints = endpoints[1:]
			continue
		}
		if err := s.ended(); err != nil {
			return fmt.Errorf("%v. It stopped before it was ready: check the flags given with WithArgs", err)
		}
		if time.Now().After(deadline) {
			err := s.failure(fmt.Sprintf("runs, but %s (%s) did not answer within %v (%v), so it was removed",
				next.what, next.where, readyTimeout, err), "look at the container's output below")
			s.stop()
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// waitTLS polls a TLS handshake with serverName on 127.0.0.1:port, trusting only the PEM ca, until it succeeds,
// while the container runs and readyTimeout has not passed; a certificate that does not verify fails at once.
func (s *containerServer) waitTLS(port int, serverName string, ca []byte) error {
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca)
	config := &tls.Config{RootCAs: roots, ServerName: serverName, NextProtos: []string{"h2", "http/1.1"}, MinVersion: tls.VersionTLS12}
	address := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(readyTimeout)
	for {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", address, config)
		if err == nil {
			return conn.Close()
		}
		var unknownAuthority x509.UnknownAuthorityError
		var hostname x509.HostnameError
		if errors.As(err, &unknownAuthority) || errors.As(err, &hostname) {
			return s.failure("serves FCM on "+address+" with a certificate that does not chain to its CA (/api/v1/ca.pem): "+
				err.Error(), "use an image built by `make image` from this repository")
		}
		if ended := s.ended(); ended != nil {
			return fmt.Errorf("%v. It stopped before it was ready: check the flags given with WithArgs", ended)
		}
		if time.Now().After(deadline) {
			err := s.failure(fmt.Sprintf("runs, but its FCM port (%s) did not complete a TLS handshake within %v (%v), "+
				"so it was removed", address, readyTimeout, err), "check that the image's mockapns knows MOCKAPNS_FCM (an "+
				"image older than the FCM front door ignores it)")
			s.stop()
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// publishedPorts maps each container port to the host port the engine picked.
func (s *containerServer) publishedPorts() (map[int]int, error) {
	out, err := s.engineRun(nil, "inspect", "--format", "{{json .NetworkSettings.Ports}}", s.name)
	if err != nil {
		return nil, fmt.Errorf("started, but its published ports cannot be read: %v", err)
	}
	var bindings map[string][]struct{ HostPort string }
	if err := json.Unmarshal([]byte(out), &bindings); err != nil {
		return nil, fmt.Errorf("started, but %s inspect answered ports the kit cannot read (%v): %.200s", filepath.Base(s.engine), err, out)
	}
	ports := map[int]int{}
	for key, list := range bindings {
		container, err := strconv.Atoi(strings.TrimSuffix(key, "/tcp"))
		if err != nil || len(list) == 0 {
			continue
		}
		if host, err := strconv.Atoi(list[0].HostPort); err == nil {
			ports[container] = host
		}
	}
	return ports, nil
}

// ended is nil while the container runs; else how it ended, with its last output.
func (s *containerServer) ended() error {
	state, err := s.engineRun(nil, "inspect", "--format", "{{.State.Running}} {{.State.ExitCode}}", s.name)
	if err != nil {
		return s.failure("is gone (removed by someone else?): "+err.Error(), "")
	}
	if strings.HasPrefix(state, "true") {
		return nil
	}
	fields := strings.Fields(state)
	return s.failure("has stopped (exit code "+fields[len(fields)-1]+")", "")
}

// failure is an error naming the container, its image and engine, what happened, what to do, and the last lines the
// container printed.
func (s *containerServer) failure(what, remedy string) error {
	text := fmt.Sprintf("the mock's container %s (image %s, engine %s) %s", s.name, s.image, s.engine, what)
	if remedy != "" {
		text += ".\nWhat to do: " + remedy
	}
	return errors.New(text + ".\nThe container's last output:\n" + s.logs())
}

// logs is the container's last 20 lines of output (stdout and stderr as it wrote them), or why there are none.
func (s *containerServer) logs() string {
	ctx, cancel := context.WithTimeout(context.Background(), engineTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, s.engine, "logs", "--tail", "20", s.name).CombinedOutput()
	text := engineNoise(string(out))
	switch {
	case err != nil:
		return fmt.Sprintf("    (none: %s logs: %s)", filepath.Base(s.engine), firstLine(text))
	case text == "":
		return "    (nothing)"
	}
	return "    " + strings.ReplaceAll(text, "\n", "\n    ")
}

// stop removes the container (and its anonymous /data volume), running or not; it says so in the test's log when
// the container is still there afterwards.
func (s *containerServer) stop() {
	if _, err := s.engineRun(nil, "rm", "-f", "-v", s.name); err == nil {
		return
	}
	if _, err := s.engineRun(nil, "inspect", "--format", "{{.Id}}", s.name); err == nil {
		s.tb.Errorf("mockapnstest: the container %s could not be removed; remove it with `%s rm -f -v %s`",
			s.name, s.engine, s.name)
	}
}

// engineRun runs the engine with args (and env, when not nil) and returns its stdout; an error carries its
// stderr, without the lines podman prints on every start and stop where there is no systemd or syslog.
func (s *containerServer) engineRun(env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), engineTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.engine, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String(), fmt.Errorf("`%s %s` failed (%v): %s", filepath.Base(s.engine), strings.Join(args, " "), err,
			engineNoise(stdout.String()+stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// engineNoise drops the lines podman prints where there is no systemd or syslog, which say nothing about the mock.
func engineNoise(text string) string {
	var kept []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.Contains(line, "unable to get systemd connection") || strings.Contains(line, "failed to connect to syslog") ||
			strings.Contains(line, "Removing timer for container") {
			continue
		}
		kept = append(kept, line)
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "\n")
}

func firstLine(text string) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i]
	}
	return text
}

// get fetches url and returns the body of a 200 answer.
func get(url string) ([]byte, error) {
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %d: %.200s", url, resp.StatusCode, body)
	}
	return body, nil
}
