package mockapnstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processServer is `mockapns serve` as a child process of the test.
type processServer struct {
	tb     testing.TB
	bin    string
	cmd    *exec.Cmd
	ready  []byte // the ready file as the mock wrote it
	exited chan struct{}
	output *tailBuffer
}

// startProcess runs `mockapns serve` on free ports and waits for its ready file; it returns the server as soon as
// it runs (so the caller can stop it whatever happens next) and the test credentials' folder.
func startProcess(t testing.TB, c *config) (*processServer, readyFile, string, error) {
	bin, err := findBinary(c.binary)
	if err != nil {
		return nil, readyFile{}, "", err
	}
	candidates := certsCandidates(bin)
	certsDir, searched := findCerts(candidates)

	dir := t.TempDir()
	readyPath := filepath.Join(dir, "ready.json")
	args := serveArguments(c, dir)
	p := &processServer{tb: t, bin: bin, exited: make(chan struct{}), output: &tailBuffer{limit: 16 << 10}}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = p.output, p.output
	p.cmd.Env = os.Environ()
	if certsDir != "" {
		p.cmd.Env = append(p.cmd.Env, "MOCKAPNS_CERTS_DIR="+certsDir)
	}
	if c.fcm {
		// The default project's service account is made once in the data folder: this test's own, so its private
		// key dies with the mock and parallel mocks do not share (or race for) one.
		p.cmd.Env = append(p.cmd.Env, "XDG_DATA_HOME="+filepath.Join(dir, "data"))
	}
	if err := p.cmd.Start(); err != nil {
		return nil, readyFile{}, "", fmt.Errorf("cannot run %s: %v", bin, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(p.stop)

	ready, err := p.waitReady(readyPath)
	if err != nil {
		if c.fcm && unknownFCMOption.MatchString(p.output.String()) {
			err = fmt.Errorf("%v\nThis mockapns (%s) does not know --fcm (WithFCM): point MOCKAPNS_BIN or WithBinary "+
				"at a build with the FCM front door", err, bin)
		}
		return p, ready, "", err
	}
	if ready.CAFile == "" && certsDir != "" {
		ready.CAFile = filepath.Join(certsDir, "ca.pem")
	}
	if certsDir == "" && ready.CAFile != "" {
		certsDir, searched = findCerts(append(candidates, filepath.Dir(ready.CAFile)))
	}
	if certsDir == "" {
		return p, ready, "", fmt.Errorf("cannot find the test credentials (certs/keys.json); looked in %s. "+
			"Set MOCKAPNS_CERTS_DIR to the repository's certs/ folder", searched)
	}
	return p, ready, certsDir, nil
}

// serveArguments is `mockapns …` as kits/spec/launch.json's binary cases have it, in the mock's own folder dir,
// then the test's own flags (WithArgs).
func serveArguments(c *config, dir string) []string {
	// --control-port 0 too, so a MOCKAPNS_CONTROL_PORT in the environment cannot make parallel mocks collide.
	args := []string{"serve", "--port", "0", "--control-port", "0", "--http1-port", "0",
		"--ready-file", filepath.Join(dir, "ready.json"), "--quiet"}
	if c.appleHosts {
		// A private CA in a folder of this test's own: --apple-hosts refuses the bundled test CA, whose key is public.
		args = append(args, "--apple-hosts", "--ca-dir", filepath.Join(dir, "ca"), "--apple-https-port", "0",
			"--manage-sandbox-port", "0", "--manage-production-port", "0")
	}
	if c.fcm {
		// Google's names: the same private CA (one for Apple's names and Google's), the mock's own FCM port and
		// Google's 443 on free ports.
		if !c.appleHosts {
			args = append(args, "--ca-dir", filepath.Join(dir, "ca"))
		}
		args = append(args, "--fcm", "--fcm-port", "0", "--fcm-https-port", "0")
	}
	return append(args, c.args...)
}

// providerToken runs `mockapns token` of the binary the mock runs, with the key the kit found (its .p8 at file).
func (p *processServer) providerToken(key SigningKey, file string) (string, error) {
	args := tokenArguments(key, file)
	cmd := exec.Command(p.bin, args...)
	cmd.Env = p.cmd.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	line := p.bin + " " + strings.Join(args, " ")
	if err := cmd.Run(); err != nil {
		return mintedToken(line, stderr.Bytes(), err)
	}
	return mintedToken(line, stdout.Bytes(), nil)
}

// unknownFCMOption is swift-argument-parser's answer to an FCM option the binary does not have.
var unknownFCMOption = regexp.MustCompile(`(?i)unknown option '--(fcm|fcm-port|fcm-https-port)'`)

// waitReady polls for the ready file until it names both URLs, the server exits, or readyTimeout passes.
func (p *processServer) waitReady(path string) (readyFile, error) {
	deadline := time.Now().Add(readyTimeout)
	for {
		var ready readyFile
		if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &ready) == nil && ready.APNsURL != "" {
			p.ready = data
			if ready.ControlURL == "" {
				return ready, fmt.Errorf("the mock started without a control plane (is MOCKAPNS_NO_CONTROL set?); the kit needs it")
			}
			return ready, nil
		}
		select {
		case <-p.exited:
			return ready, fmt.Errorf("`%s` exited (%v) before it was ready; its output:\n%s",
				strings.Join(p.cmd.Args, " "), p.cmd.ProcessState, p.output.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return ready, fmt.Errorf("`%s` did not write its ready file within %v, so it was stopped; its output:\n%s",
				strings.Join(p.cmd.Args, " "), readyTimeout, p.output.String())
		}
	}
}

func (p *processServer) ended() error {
	select {
	case <-p.exited:
		return fmt.Errorf("the mock (pid %d) exited (%v); its output:\n%s", p.cmd.Process.Pid, p.cmd.ProcessState, p.output.String())
	default:
		return nil
	}
}

// stop sends SIGTERM and waits; a server that does not exit within stopTimeout is killed.
func (p *processServer) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		if !p.cmd.ProcessState.Success() {
			p.tb.Logf("mockapnstest: the mock exited with %v on SIGTERM; its output:\n%s", p.cmd.ProcessState, p.output.String())
		}
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
		p.tb.Logf("mockapnstest: the mock did not stop within %v of SIGTERM and was killed", stopTimeout)
	}
}
