package mockapnstest_test

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

func TestAPushIsAcceptedAndFoundWithExpect(t *testing.T) {
	mock := mockapnstest.Start(t)
	a := send(t, mock, mock.Client(), phone, appTopic, "Shipped")
	if a.status != 200 || a.apnsID == "" {
		t.Fatalf("want 200 with an apns-id, got %+v", a)
	}
	got := mock.Expect(t, mockapnstest.Filter{Topic: appTopic, Token: phone, Status: 200})
	if len(got) != 1 {
		t.Fatalf("Expect returned %d notifications, want 1", len(got))
	}
	n := got[0]
	if n.AlertTitle != "Shipped" || n.AlertBody != "Order 42" || n.PushType != "alert" || n.APNsID != a.apnsID ||
		n.Header("apns-priority") != "10" {
		t.Errorf("recorded %+v; want the alert as sent, with the apns-id the sender got (%s)", n, a.apnsID)
	}
}

// clockless replaces each clock time of a message (12:00:01.250) with {time}.
func clockless(message string) string {
	return regexp.MustCompile(`\b\d{2}:\d{2}:\d{2}\.\d{3}\b`).ReplaceAllString(message, "{time}")
}

func TestExpectFailsWithTheMocksReportClosestFirst(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	mock.SetDevice(watch, mockapnstest.Unregistered())
	send(t, mock, client, phone, appTopic, "Shipped")
	send(t, mock, client, tablet, appTopic, "Delayed")
	send(t, mock, client, watch, otherTopic, "Cancelled")

	fake := &recordingTB{TB: t}
	fake.run(func() { mock.Expect(fake, mockapnstest.Filter{Topic: appTopic, Token: phone, Status: 410}) })
	want := strings.Join([]string{
		"expect: FAILED — wanted at least 1 record with token=" + phone + ", topic=com.example.app, status=410; 0 matched (of 3 records in the mock's recording).",
		"Closest records:",
		"  #1  {time}  200 OK  meets 2 of 3; missed: status=410 (found 200)",
		"  #3  {time}  410 Unregistered  meets 1 of 3; missed: token=" + phone + ` (found "` + watch + `"); topic=com.example.app (found "com.example.other")`,
		"  #2  {time}  200 OK  meets 1 of 3; missed: token=" + phone + ` (found "` + tablet + `"); status=410 (found 200)`,
	}, "\n")
	if got := clockless(fake.onlyError(t)); got != want {
		t.Errorf("failure message:\n%s\nwant:\n%s", got, want)
	}
}

func TestExpectWithNothingReceivedSaysSo(t *testing.T) {
	mock := mockapnstest.Start(t)
	fake := &recordingTB{TB: t}
	fake.run(func() { mock.Expect(fake, mockapnstest.Filter{Topic: appTopic}) })
	want := strings.Join([]string{
		"mockapnstest: no push reached the mock. Is the sender pointed at mock.URL, trusting mock.CertPool() and speaking HTTP/2?",
		"expect: FAILED — wanted at least 1 record with topic=com.example.app; 0 matched (of 0 records in the mock's recording).",
		"No records arrived at all.",
	}, "\n")
	if got := fake.onlyError(t); got != want {
		t.Errorf("failure message:\n%s\nwant:\n%s", got, want)
	}
}

func TestCountZeroMeansAtLeastOneAndAnyOtherCountIsExact(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	send(t, mock, client, phone, appTopic, "One")
	send(t, mock, client, tablet, appTopic, "Two")
	send(t, mock, client, phone, otherTopic, "Three")

	for _, count := range []int{0, 2} {
		fake := &recordingTB{TB: t}
		var got []mockapnstest.Notification
		fake.run(func() { got = mock.Expect(fake, mockapnstest.Filter{Topic: appTopic, Count: count}) })
		if len(fake.errors)+len(fake.fatals) > 0 || len(got) != 2 {
			t.Errorf("Count %d with 2 matching: reported %q %q, returned %d", count, fake.errors, fake.fatals, len(got))
		}
	}
	if got := mock.Expect(t, mockapnstest.Filter{Topic: "com.example.none", None: true}); len(got) != 0 {
		t.Errorf("None with nothing matching returned %d notifications", len(got))
	}

	cases := []struct {
		filter mockapnstest.Filter
		want   string
	}{
		{mockapnstest.Filter{Topic: appTopic, Count: 1}, strings.Join([]string{
			"expect: FAILED — wanted exactly 1 record with topic=com.example.app; 2 matched (of 3 records in the mock's recording).",
			"Matching records:",
			"  #1  {time}  200 OK  One — Order 42",
			"  #2  {time}  200 OK  Two — Order 42",
		}, "\n")},
		{mockapnstest.Filter{Topic: appTopic, Count: 3}, strings.Join([]string{
			"expect: FAILED — wanted exactly 3 records with topic=com.example.app; 2 matched (of 3 records in the mock's recording).",
			"Matching records:",
			"  #1  {time}  200 OK  One — Order 42",
			"  #2  {time}  200 OK  Two — Order 42",
			"Closest records:",
			`  #3  {time}  200 OK  meets 0 of 1; missed: topic=com.example.app (found "com.example.other")`,
		}, "\n")},
		{mockapnstest.Filter{Topic: otherTopic, None: true}, strings.Join([]string{
			"expect: FAILED — wanted no records with topic=com.example.other; 1 matched (of 3 records in the mock's recording).",
			"Matching records:",
			"  #3  {time}  200 OK  Three — Order 42",
		}, "\n")},
		{mockapnstest.Filter{Topic: "com.example.none"}, strings.Join([]string{
			"expect: FAILED — wanted at least 1 record with topic=com.example.none; 0 matched (of 3 records in the mock's recording).",
			"Closest records:",
			`  #3  {time}  200 OK  meets 0 of 1; missed: topic=com.example.none (found "com.example.other")`,
			`  #2  {time}  200 OK  meets 0 of 1; missed: topic=com.example.none (found "com.example.app")`,
			`  #1  {time}  200 OK  meets 0 of 1; missed: topic=com.example.none (found "com.example.app")`,
		}, "\n")},
	}
	for _, c := range cases {
		fake := &recordingTB{TB: t}
		fake.run(func() { mock.Expect(fake, c.filter) })
		if got := clockless(fake.onlyError(t)); got != c.want {
			t.Errorf("%v:\n%s\nwant:\n%s", c.filter, got, c.want)
		}
	}
	fake := &recordingTB{TB: t}
	fake.run(func() { mock.Expect(fake, mockapnstest.Filter{None: true, Count: 1}) })
	if got := fake.onlyFatal(t); !strings.Contains(got, "Filter.None and Filter.Count 1 were both given") {
		t.Errorf("None with a Count: %q", got)
	}
}

func TestExpectChecksPayloadConditionsAndWaitsUpToItsTimeout(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	three := 3
	sendAlert(t, mock, client, phone, alert{title: "Shipped", body: "Order 42", badge: &three})
	got := mock.Expect(t, mockapnstest.Filter{Token: strings.ToUpper(phone), Where: []string{"aps.badge=3.0", "aps.alert.title=Shipped"}, Count: 1})
	if len(got) != 1 || got[0].AlertTitle != "Shipped" {
		t.Errorf("Where: returned %+v", got)
	}
	fake := &recordingTB{TB: t}
	fake.run(func() { mock.Expect(fake, mockapnstest.Filter{Where: []string{"aps.badge=4"}}) })
	if got := clockless(fake.onlyError(t)); !strings.HasSuffix(got, "\n  #1  {time}  200 OK  meets 0 of 1; missed: aps.badge=4 (found 3)") {
		t.Errorf("Where miss:\n%s", got)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(300 * time.Millisecond)
		sendAlert(t, mock, client, tablet, alert{title: "Late", body: "Order 43"})
	}()
	started := time.Now()
	late := mock.Expect(t, mockapnstest.Filter{Token: tablet, Timeout: 30 * time.Second})
	<-done
	if len(late) != 1 || late[0].AlertTitle != "Late" || time.Since(started) < 250*time.Millisecond {
		t.Errorf("Timeout: returned %+v after %v", late, time.Since(started))
	}
	fake = &recordingTB{TB: t}
	started = time.Now()
	fake.run(func() { mock.Expect(fake, mockapnstest.Filter{Token: watch, Timeout: 300 * time.Millisecond}) })
	if waited := time.Since(started); waited < 300*time.Millisecond || !strings.Contains(fake.onlyError(t), "token="+watch) {
		t.Errorf("a miss with a Timeout reported %q after %v", fake.errors, waited)
	}
}

func TestClearForgetsPushesDeviceStatesAndFaults(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	mock.SetDevice(phone, mockapnstest.Unregistered())
	mock.AddFault(mockapnstest.Fault{Topic: otherTopic, Action: mockapnstest.Respond(500, "InternalServerError")})
	send(t, mock, client, phone, appTopic, "Before")

	mock.ClearNotifications()
	if n := len(mock.Notifications(mockapnstest.Filter{})); n != 0 {
		t.Fatalf("after ClearNotifications the mock still lists %d notifications", n)
	}
	if a := send(t, mock, client, phone, appTopic, "Kept"); a.status != 410 {
		t.Errorf("ClearNotifications should keep the device state: got %d, want 410", a.status)
	}

	mock.Clear()
	if n := len(mock.Notifications(mockapnstest.Filter{})); n != 0 {
		t.Fatalf("after Clear the mock still lists %d notifications", n)
	}
	if a := send(t, mock, client, phone, appTopic, "After"); a.status != 200 {
		t.Errorf("after Clear the device state should be gone: got %+v, want 200", a)
	}
	if a := send(t, mock, client, tablet, otherTopic, "After"); a.status != 200 {
		t.Errorf("after Clear the fault should be gone: got %+v, want 200", a)
	}
	mock.Expect(t, mockapnstest.Filter{Status: 200, Count: 2})
}

func TestSetDeviceUnregisteredGives410OnTheNextPush(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	since := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	mock.SetDevice(phone, mockapnstest.UnregisteredSince(since))

	a := send(t, mock, client, phone, appTopic, "Gone")
	if a.status != 410 || a.reason != "Unregistered" || a.timestamp != since.UnixMilli() {
		t.Errorf("got %+v, want 410 Unregistered with timestamp %d", a, since.UnixMilli())
	}
	if a := send(t, mock, client, tablet, appTopic, "Live"); a.status != 200 {
		t.Errorf("another token should stay live: got %+v", a)
	}
	mock.Expect(t, mockapnstest.Filter{Token: phone, Status: 410, Reason: "Unregistered", Count: 1})
}

func TestAddFaultFailsTheNextPushWithTheStatusGiven(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	id := mock.AddFault(mockapnstest.Fault{Name: "apns down", Count: 1,
		Action: mockapnstest.Respond(503, "ServiceUnavailable")})
	if id == "" {
		t.Fatal("AddFault returned no rule id")
	}
	if a := send(t, mock, client, phone, appTopic, "First"); a.status != 503 || a.reason != "ServiceUnavailable" {
		t.Errorf("first push: got %+v, want 503 ServiceUnavailable", a)
	}
	if a := send(t, mock, client, phone, appTopic, "Second"); a.status != 200 {
		t.Errorf("second push (the fault fired once): got %+v, want 200", a)
	}
	failed := mock.Expect(t, mockapnstest.Filter{Status: 503, Reason: "ServiceUnavailable", Count: 1})
	if len(failed) == 1 && (len(failed[0].Faults) != 1 || failed[0].Faults[0] != "apns down") {
		t.Errorf("the failed push names faults %q, want [apns down]", failed[0].Faults)
	}
}

func TestAFaultTheBinaryRefusesFailsTheTestWithItsReason(t *testing.T) {
	fake := &recordingTB{TB: t}
	mock := startThrough(t, fake) // its methods report through the test that started it
	fake.run(func() { mock.AddFault(mockapnstest.Fault{Action: mockapnstest.Respond(99, "TooLow")}) })
	got := fake.onlyFatal(t)
	if !strings.Contains(got, "POST /api/v1/faults with 400") || !strings.Contains(got, "100 to 599") {
		t.Errorf("message %q should name the request, the 400 and the binary's reason", got)
	}
}

func TestStartWithoutABinaryFailsClearly(t *testing.T) {
	t.Setenv("MOCKAPNS_IMAGE", "") // binary mode, whichever mode the suite runs in: no real mock is started
	missing := filepath.Join(t.TempDir(), "mockapns")
	t.Setenv("MOCKAPNS_BIN", missing)
	fake := &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	if got := fake.onlyFatal(t); !strings.Contains(got, `MOCKAPNS_BIN is "`+missing+`", but there is no file there`) {
		t.Errorf("message %q should name MOCKAPNS_BIN and its path", got)
	}

	t.Setenv("MOCKAPNS_BIN", "")
	t.Setenv("PATH", t.TempDir())
	fake = &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	if got := fake.onlyFatal(t); !strings.Contains(got, "MOCKAPNS_BIN is not set and there is no mockapns on PATH") {
		t.Errorf("message %q should say neither MOCKAPNS_BIN nor PATH has the binary", got)
	}

	fake = &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake, mockapnstest.WithBinary(missing)) })
	if got := fake.onlyFatal(t); !strings.Contains(got, `WithBinary is "`+missing+`", but there is no file there`) {
		t.Errorf("message %q should name WithBinary and its path", got)
	}

	fake = &recordingTB{TB: t}
	fake.run(func() {
		mockapnstest.Start(fake, mockapnstest.WithBinary(missing), mockapnstest.WithImage("mockapns:latest"))
	})
	if got := fake.onlyFatal(t); !strings.Contains(got, "WithBinary and WithImage were both given") {
		t.Errorf("message %q should refuse both modes at once", got)
	}
}

// fakeServer writes an executable shell script standing in for mockapns and points MOCKAPNS_BIN at it (binary mode,
// whichever mode the suite runs in: these tests are about starting a process, not about the real mock).
func fakeServer(t *testing.T, script string) {
	t.Setenv("MOCKAPNS_IMAGE", "")
	path := filepath.Join(t.TempDir(), "mockapns")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MOCKAPNS_BIN", path)
}

func TestStartReportsAServerThatExitsWithItsOutput(t *testing.T) {
	fakeServer(t, `echo "error: port 2198 is in use" >&2; exit 3`)
	fake := &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	got := fake.onlyFatal(t)
	if !strings.Contains(got, "exited (exit status 3) before it was ready") || !strings.Contains(got, "error: port 2198 is in use") {
		t.Errorf("message %q should give the exit status and the server's stderr", got)
	}
}

func TestStartGivesUpOnAServerThatNeverGetsReady(t *testing.T) {
	defer mockapnstest.SetReadyTimeout(300 * time.Millisecond)()
	fakeServer(t, `echo "still starting" >&2; exec sleep 60`)
	fake := &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	got := fake.onlyFatal(t)
	if !strings.Contains(got, "did not write its ready file within 300ms") || !strings.Contains(got, "still starting") {
		t.Errorf("message %q should give the deadline and the server's stderr", got)
	}
}

func TestTokenIsAnES256JWTSignedWithTheBundledKey(t *testing.T) {
	mock := mockapnstest.Start(t)
	token := mock.Token()
	if again := mock.Token(); again != token {
		t.Error("Token should return the same token until it is 30 minutes old")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("%q is not a JWT", token)
	}
	var header struct{ Alg, Kid string }
	var claims struct {
		Iss string
		Iat int64
	}
	decode := func(part string, into interface{}) []byte {
		data, err := base64.RawURLEncoding.DecodeString(part)
		if err != nil {
			t.Fatalf("%q is not base64url: %v", part, err)
		}
		if into != nil {
			if err := json.Unmarshal(data, into); err != nil {
				t.Fatalf("%s is not JSON: %v", data, err)
			}
		}
		return data
	}
	decode(parts[0], &header)
	decode(parts[1], &claims)
	signature := decode(parts[2], nil)
	if header.Alg != "ES256" || header.Kid != mock.Key.KeyID || claims.Iss != mock.Key.TeamID || claims.Iat == 0 {
		t.Errorf("header %+v, claims %+v; want ES256, kid %s, iss %s", header, claims, mock.Key.KeyID, mock.Key.TeamID)
	}
	if len(signature) != 64 {
		t.Fatalf("signature is %d bytes, want raw R||S of 64", len(signature))
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(signature[:32]), new(big.Int).SetBytes(signature[32:])
	if !ecdsa.Verify(&mock.Key.PrivateKey.PublicKey, digest[:], r, s) {
		t.Error("the signature does not verify with the bundled key")
	}
}

func TestTLSConfigTrustsTheMockAndOffersHTTP2(t *testing.T) {
	mock := mockapnstest.Start(t)
	u, err := url.Parse(mock.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := tls.Dial("tcp", u.Host, mock.TLSConfig())
	if err != nil {
		t.Fatalf("TLS handshake with %s failed: %v", u.Host, err)
	}
	defer conn.Close()
	if proto := conn.ConnectionState().NegotiatedProtocol; proto != "h2" {
		t.Errorf("ALPN chose %q, want h2", proto)
	}
	if _, err := tls.Dial("tcp", u.Host, &tls.Config{MinVersion: tls.VersionTLS12}); err == nil {
		t.Error("a client without the mock's CA should not trust it")
	}
}

func TestCredentialsAreFoundAboveTheBinaryAndHandedToIt(t *testing.T) {
	onlyIn(t, "binary", "a container's credentials come out of its image")
	realBin := os.Getenv("MOCKAPNS_BIN")
	if realBin == "" {
		t.Fatal("set MOCKAPNS_BIN to the mockapns binary to run the kit's tests")
	}
	root := t.TempDir()
	certs, err := filepath.Abs(filepath.Join("..", "..", "certs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(certs, filepath.Join(root, "certs")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "release", "x86_64", "mockapns") // certs/ is two folders above it
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec '"+realBin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MOCKAPNS_BIN", bin)
	t.Setenv("MOCKAPNS_CERTS_DIR", "")

	mock := mockapnstest.Start(t)
	if want := filepath.Join(root, "certs", "ca.pem"); mock.CAFile != want {
		t.Errorf("CAFile is %s, want %s (the certs/ found above the binary, handed to it)", mock.CAFile, want)
	}
	if a := send(t, mock, mock.Client(), phone, appTopic, "Found"); a.status != 200 {
		t.Errorf("got %+v, want 200", a)
	}
}

func TestHTTP1URLTakesPlainHTTP1Pushes(t *testing.T) {
	if mock := mockapnstest.Start(t, mockapnstest.WithHTTP1()); !strings.HasPrefix(mock.HTTP1URL, "http://127.0.0.1:") {
		t.Errorf("HTTP1URL is %q with WithHTTP1 (kept as a no-op); want http://127.0.0.1:<port>", mock.HTTP1URL)
	}
	mock := mockapnstest.Start(t) // launch.json: HTTP/1.1 always on
	if !strings.HasPrefix(mock.HTTP1URL, "http://127.0.0.1:") {
		t.Fatalf("HTTP1URL is %q; want http://127.0.0.1:<port>", mock.HTTP1URL)
	}
	req, _ := http.NewRequest(http.MethodPost, mock.HTTP1URL+"/3/device/"+phone, strings.NewReader(`{"aps":{"alert":"Hi"}}`))
	req.Header = http.Header{"Authorization": {"bearer " + mock.Token()}, "Apns-Topic": {appTopic}}
	client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ProtoMajor != 1 {
		t.Errorf("HTTP/1.1 push answered %d over %s; want 200 over HTTP/1.1", resp.StatusCode, resp.Proto)
	}
	mock.Expect(t, mockapnstest.Filter{Token: phone, Status: 200, Count: 1})
}
