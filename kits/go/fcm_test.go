package mockapnstest_test

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// firebaseSender does what firebase-admin-go (v4) does for messaging.Client.Send when its app is made with
// option.WithEndpoint(mock.FCMURL()+"/v1") and option.WithHTTPClient(oauth2.NewClient(ctx, creds.TokenSource)),
// ctx carrying mock.HTTPClient() as oauth2.HTTPClient: golang.org/x/oauth2/jwt signs the service account's grant
// (RS256, x/oauth2/jws's header and claims) and posts it to the file's token_uri on that client; the messaging client
// POSTs {endpoint}/projects/{project}/messages:send with the bearer token. firebase-admin-go and its dependencies
// need the module proxy, which this machine cannot reach; this is its network traffic in the standard library.
type firebaseSender struct {
	client   *http.Client // mock.HTTPClient(): Google's names go to the mock, whose CA is trusted
	endpoint string       // option.WithEndpoint's value
	account  serviceAccount
	token    string
}

// serviceAccount is the part of a service-account key file the grant needs.
type serviceAccount struct {
	Type         string `json:"type"`
	ProjectID    string `json:"project_id"`
	PrivateKeyID string `json:"private_key_id"`
	PrivateKey   string `json:"private_key"`
	ClientEmail  string `json:"client_email"`
	TokenURI     string `json:"token_uri"`
}

// firebaseScopes are the scopes firebase-admin-go asks for (internal.FirebaseScopes).
var firebaseScopes = []string{"https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/datastore",
	"https://www.googleapis.com/auth/devstorage.full_control", "https://www.googleapis.com/auth/firebase",
	"https://www.googleapis.com/auth/identitytoolkit", "https://www.googleapis.com/auth/userinfo.email"}

func newFirebaseSender(t *testing.T, client *http.Client, endpoint, serviceAccountFile string) *firebaseSender {
	t.Helper()
	data, err := os.ReadFile(serviceAccountFile)
	if err != nil {
		t.Fatal(err)
	}
	s := &firebaseSender{client: client, endpoint: endpoint}
	if err := json.Unmarshal(data, &s.account); err != nil {
		t.Fatalf("%s is not a service-account file: %v", serviceAccountFile, err)
	}
	return s
}

// assertion is the grant x/oauth2/jwt signs: header {"alg":"RS256","typ":"JWT","kid":…}, claims iss, scope, aud
// (token_uri), exp and iat, iat 10 s in the past as x/oauth2/jws sets it.
func (s *firebaseSender) assertion(t *testing.T) string {
	t.Helper()
	block, _ := pem.Decode([]byte(s.account.PrivateKey))
	if block == nil {
		t.Fatal("the service account's private_key is not PEM")
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatalf("the service account's private_key is not PKCS#8: %v", err)
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		t.Fatalf("the service account's private_key is a %T, not RSA", parsed)
	}
	part := func(v interface{}) string {
		data, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(data)
	}
	now := time.Now().Add(-10 * time.Second)
	signed := part(map[string]string{"alg": "RS256", "typ": "JWT", "kid": s.account.PrivateKeyID}) + "." +
		part(map[string]interface{}{"iss": s.account.ClientEmail, "scope": strings.Join(firebaseScopes, " "),
			"aud": s.account.TokenURI, "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()})
	digest := sha256.Sum256([]byte(signed))
	signature, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return signed + "." + base64.RawURLEncoding.EncodeToString(signature)
}

// grant posts the assertion to token_uri as x/oauth2 does (a form body); it returns the status and the JSON answer.
func (s *firebaseSender) grant(t *testing.T) (int, map[string]interface{}) {
	t.Helper()
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {s.assertion(t)}}
	resp, err := s.client.PostForm(s.account.TokenURI, form)
	if err != nil {
		t.Fatalf("POST %s: %v", s.account.TokenURI, err)
	}
	return decode(t, resp)
}

// send is messaging.Client.Send: the access token (fetched once), then POST …/messages:send with firebase-admin-go's
// headers. It returns the status and the JSON answer.
func (s *firebaseSender) send(t *testing.T, message map[string]interface{}) (int, map[string]interface{}) {
	t.Helper()
	if s.token == "" {
		status, answer := s.grant(t)
		token, _ := answer["access_token"].(string)
		if status != 200 || token == "" {
			t.Fatalf("the token request answered %d: %v", status, answer)
		}
		s.token = token
	}
	body, _ := json.Marshal(map[string]interface{}{"message": message})
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/projects/%s/messages:send", s.endpoint, s.account.ProjectID),
		bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GOOG-API-FORMAT-VERSION", "2")
	req.Header.Set("X-FIREBASE-CLIENT", "fire-admin-go/4.19.0")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", req.URL, err)
	}
	return decode(t, resp)
}

func decode(t *testing.T, resp *http.Response) (int, map[string]interface{}) {
	t.Helper()
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var answer map[string]interface{}
	if err := json.Unmarshal(data, &answer); err != nil {
		t.Fatalf("%s answered %d with a body that is not JSON: %q", resp.Request.URL, resp.StatusCode, data)
	}
	return resp.StatusCode, answer
}

// fcmError is the google.rpc status and FCM's errorCode of an error answer.
func fcmError(answer map[string]interface{}) (status, code string) {
	failure, _ := answer["error"].(map[string]interface{})
	status, _ = failure["status"].(string)
	details, _ := failure["details"].([]interface{})
	for _, d := range details {
		detail, _ := d.(map[string]interface{})
		if kind, _ := detail["@type"].(string); strings.HasSuffix(kind, "google.firebase.fcm.v1.FcmError") {
			code, _ = detail["errorCode"].(string)
		}
	}
	return status, code
}

func notificationTo(token, title string) map[string]interface{} {
	return map[string]interface{}{"token": token, "notification": map[string]string{"title": title, "body": "Order 42"}}
}

func TestAFirebaseSenderWithTheMocksEndpointReachesTheIPhone(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	if !regexp.MustCompile(`^https://127\.0\.0\.1:\d+$`).MatchString(mock.FCMURL()) {
		t.Errorf("FCMURL %q; want https://127.0.0.1:PORT", mock.FCMURL())
	}
	phone := mock.RegisterFCM(mockapnstest.FCMApp{BundleID: appTopic})
	if !strings.HasPrefix(phone.Token, phone.FID+":APA91b") || len(phone.APNsToken) != 64 || phone.Platform != "ios" {
		t.Fatalf("registration %+v; want a <fid>:APA91b… token backed by a 64-hex APNs token", phone)
	}
	sender := newFirebaseSender(t, mock.HTTPClient(), mock.FCMURL()+"/v1", mock.FCMServiceAccount())
	if sender.account.TokenURI != "https://oauth2.googleapis.com/token" || sender.account.ProjectID != mockapnstest.FCMProject {
		t.Errorf("service account token_uri %q, project %q; want Google's token endpoint and %s",
			sender.account.TokenURI, sender.account.ProjectID, mockapnstest.FCMProject)
	}

	status, answer := sender.send(t, notificationTo(phone.Token, "Shipped"))
	name, _ := answer["name"].(string)
	if status != 200 || !regexp.MustCompile(`^projects/mockapns-test/messages/0:\d+%[0-9a-f]+$`).MatchString(name) {
		t.Fatalf("messages:send answered %d %v; want 200 with projects/mockapns-test/messages/0:…", status, answer)
	}
	records := mock.ExpectFCM(t, mockapnstest.FCMFilter{Name: name, Token: phone.Token, Status: 200, Count: 1})
	if len(records) != 1 {
		t.FailNow()
	}
	record := records[0]
	if record.Name != name || len(record.APNsIDs) != 1 || record.Transport != "h2" {
		t.Errorf("record %+v; want the name answered, one APNs push, over h2 (net/http's HTTP/2)", record)
	}
	pushes := mock.APNsPushesOf(record)
	if len(pushes) != 1 || pushes[0].Token != phone.APNsToken || pushes[0].AlertTitle != "Shipped" || pushes[0].Status != 200 {
		t.Fatalf("the APNs pushes of the message: %+v; want one to %s titled Shipped, accepted", pushes, phone.APNsToken)
	}
	var payload map[string]interface{}
	if err := json.Unmarshal(pushes[0].Payload, &payload); err != nil {
		t.Fatal(err)
	}
	if id, ok := payload["gcm.message_id"]; !ok || !regexp.MustCompile(`^\d+$`).MatchString(fmt.Sprint(id)) {
		t.Errorf("the APNs payload %s has no numeric gcm.message_id", pushes[0].Payload)
	}
	if payload["google.c.fid"] != phone.FID {
		t.Errorf("the APNs payload's google.c.fid is %v; want the registration's fid %s", payload["google.c.fid"], phone.FID)
	}
	if same := mock.Notifications(mockapnstest.Filter{Token: phone.APNsToken}); len(same) != 1 || same[0].APNsID != pushes[0].APNsID {
		t.Errorf("the APNs record by token: %+v; want the push of the FCM message", same)
	}
	mock.ExpectShown(t, phone.APNsToken, "Shipped")
}

func TestAFirebaseSendToAnUnregisteredOrMalformedTokenGetsFCMsError(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	phone := mock.RegisterFCM(mockapnstest.FCMApp{BundleID: appTopic, APNsToken: tablet})
	if phone.APNsToken != tablet {
		t.Fatalf("registration's APNs token %q; want the one given, %s", phone.APNsToken, tablet)
	}
	mock.SetDevice(phone.APNsToken, mockapnstest.Unregistered())
	sender := newFirebaseSender(t, mock.HTTPClient(), mock.FCMURL()+"/v1", mock.FCMServiceAccount())

	status, answer := sender.send(t, notificationTo(phone.Token, "Too late"))
	if rpc, code := fcmError(answer); status != 404 || rpc != "NOT_FOUND" || code != "UNREGISTERED" {
		t.Errorf("a send to an unregistered iPhone answered %d %s/%s; want 404 NOT_FOUND/UNREGISTERED (%v)", status, rpc, code, answer)
	}
	refused := mock.ExpectFCM(t, mockapnstest.FCMFilter{Token: phone.Token, Status: 404, Count: 1})
	if len(refused) == 1 && (refused[0].ErrorCode != "UNREGISTERED" || refused[0].Name != "") {
		t.Errorf("the refused record %+v; want errorCode UNREGISTERED and no name", refused[0])
	}
	// What APNs answered FCM.
	mock.Expect(t, mockapnstest.Filter{Token: tablet, Status: 410, Reason: "Unregistered", Count: 1})

	status, answer = sender.send(t, notificationTo("not-a-token", "Nowhere"))
	if rpc, code := fcmError(answer); status != 400 || rpc != "INVALID_ARGUMENT" || code != "INVALID_ARGUMENT" {
		t.Errorf("a malformed token answered %d %s/%s; want 400 INVALID_ARGUMENT (%v)", status, rpc, code, answer)
	}
	if invalid := mock.ExpectFCM(t, mockapnstest.FCMFilter{Status: 400, Count: 1}); len(invalid) == 1 && len(invalid[0].APNsIDs) != 0 {
		t.Errorf("the malformed token's record %+v became APNs pushes", invalid[0])
	}
	if n := len(mock.Notifications(mockapnstest.Filter{})); n != 1 {
		t.Errorf("the mock recorded %d APNs pushes; want only the one to the unregistered iPhone", n)
	}
}

func TestGooglesNamesReachTheMockThroughHTTPClient(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	phone := mock.RegisterFCM(mockapnstest.FCMApp{})
	// firebase-admin-go's default endpoint (no WithEndpoint), and the IID host it has no option for: both go to the
	// mock on the kit's HTTP client.
	sender := newFirebaseSender(t, mock.HTTPClient(), "https://fcm.googleapis.com/v1", mock.FCMServiceAccount())
	status, answer := sender.grant(t)
	if status != 200 || answer["token_type"] != "Bearer" || answer["expires_in"] != float64(3599) {
		t.Fatalf("the grant at oauth2.googleapis.com answered %d %v; want 200, a Bearer token for 3599 s", status, answer)
	}
	body, _ := json.Marshal(map[string]interface{}{"to": "/topics/news", "registration_tokens": []string{phone.Token}})
	req, _ := http.NewRequest(http.MethodPost, "https://iid.googleapis.com/iid/v1:batchAdd", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+answer["access_token"].(string))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("access_token_auth", "true")
	resp, err := sender.client.Do(req)
	if err != nil {
		t.Fatalf("POST iid.googleapis.com: %v", err)
	}
	if status, answer := decode(t, resp); status != 200 {
		t.Fatalf("iid batchAdd answered %d %v; want 200", status, answer)
	}
	status, answer = sender.send(t, map[string]interface{}{"topic": "news", "notification": map[string]string{"title": "Extra"}})
	if status != 200 {
		t.Fatalf("a topic send to fcm.googleapis.com answered %d %v; want 200", status, answer)
	}
	mock.ExpectFCM(t, mockapnstest.FCMFilter{Topic: "news", Status: 200, Count: 1})
	mock.ExpectShown(t, phone.APNsToken, "Extra")

	// Another port of Google's names is refused, and a bearer token the mock never issued is 401.
	if resp, err := sender.client.Get("https://fcm.googleapis.com:8443/v1"); err == nil {
		resp.Body.Close()
		t.Errorf("fcm.googleapis.com:8443 answered %d; want a refused connection", resp.StatusCode)
	} else if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "Google serves fcm.googleapis.com on port 443 only") {
		t.Errorf("fcm.googleapis.com:8443 failed with %v; want ECONNREFUSED saying Google serves it on 443 only", err)
	}
	sender.token = "not-a-token-the-mock-issued"
	if status, answer := sender.send(t, notificationTo(phone.Token, "Unauthenticated")); status != 401 {
		t.Errorf("an unknown bearer token answered %d %v; want 401 UNAUTHENTICATED", status, answer)
	}
}

func TestAnotherProjectsServiceAccountAndClearKeepsRegistrations(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	file := mock.NewFCMServiceAccount("mockapns-kit")
	phone := mock.RegisterFCM(mockapnstest.FCMApp{Project: "mockapns-kit"})
	sender := newFirebaseSender(t, mock.HTTPClient(), mock.FCMURL()+"/v1", file)
	if sender.account.ProjectID != "mockapns-kit" {
		t.Fatalf("the new service account is for %q; want mockapns-kit", sender.account.ProjectID)
	}
	if status, answer := sender.send(t, notificationTo(phone.Token, "Before")); status != 200 {
		t.Fatalf("a send for mockapns-kit answered %d %v", status, answer)
	}
	if n := len(mock.FCMMessages(mockapnstest.FCMFilter{Project: mockapnstest.FCMProject})); n != 0 {
		t.Errorf("%d FCM records for %s; want none", n, mockapnstest.FCMProject)
	}
	mock.Clear()
	if n := len(mock.FCMMessages(mockapnstest.FCMFilter{})); n != 0 {
		t.Errorf("%d FCM records after Clear; want none", n)
	}
	if status, answer := sender.send(t, notificationTo(phone.Token, "After")); status != 200 {
		t.Fatalf("a send after Clear answered %d %v; the registration should stay", status, answer)
	}
	mock.ExpectFCM(t, mockapnstest.FCMFilter{Project: "mockapns-kit", Count: 1})
}

func TestExpectFCMFailureListsWhatWasRecorded(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	phone := mock.RegisterFCM(mockapnstest.FCMApp{})
	sender := newFirebaseSender(t, mock.HTTPClient(), mock.FCMURL()+"/v1", mock.FCMServiceAccount())
	if status, answer := sender.send(t, notificationTo(phone.Token, "Shipped")); status != 200 {
		t.Fatalf("messages:send answered %d %v", status, answer)
	}
	fake := &recordingTB{TB: t}
	var got []mockapnstest.FCMMessage
	fake.run(func() {
		got = mock.ExpectFCM(fake, mockapnstest.FCMFilter{Token: phone.Token, Status: 404, Count: 1})
	})
	failure := fake.onlyError(t)
	lines := strings.Split(failure, "\n")
	// The mock's own words (GET /api/v1/fcm/expect), unchanged: the verdict, then the closest record with its miss.
	want := fmt.Sprintf("expect: FAILED — wanted exactly 1 FCM record with token=%s, status=404; 0 matched (of 1 FCM record", phone.Token)
	if len(lines) < 3 || !strings.HasPrefix(lines[0], want) || lines[1] != "Closest FCM records:" ||
		!regexp.MustCompile(`^  #\d+ .*200.*meets 1 of 2; missed: status=404 \(found 200`).MatchString(lines[2]) {
		t.Errorf("failure message:\n%s\nwant it to start %q, then the closest record, which missed status=404", failure, want)
	}
	if len(got) != 0 {
		t.Errorf("ExpectFCM returned %d records; none matched", len(got))
	}

	// A met expectation reports nothing and returns the records the mock matched (matched_seqs), oldest first.
	sender.send(t, notificationTo(phone.Token, "Again"))
	fake = &recordingTB{TB: t}
	fake.run(func() { got = mock.ExpectFCM(fake, mockapnstest.FCMFilter{Token: phone.Token, Status: 200, Count: 2}) })
	if len(fake.errors)+len(fake.fatals) > 0 || len(got) != 2 || got[0].Seq >= got[1].Seq || got[0].Token != phone.Token {
		t.Errorf("a met ExpectFCM reported %q %q and returned %+v; want the two records, oldest first", fake.errors, fake.fatals, got)
	}
	// None wants no match; a miss is the mock's message again.
	fake = &recordingTB{TB: t}
	fake.run(func() { mock.ExpectFCM(fake, mockapnstest.FCMFilter{Token: phone.Token, None: true}) })
	if failure := fake.onlyError(t); !strings.HasPrefix(failure, "expect: FAILED — wanted no FCM records with token=") {
		t.Errorf("a missed None reported %q; want the mock's \"expect: FAILED — wanted no FCM records …\"", failure)
	}
	dryRun := false
	if got := mock.ExpectFCM(t, mockapnstest.FCMFilter{Token: phone.Token, ValidateOnly: &dryRun}); len(got) != 2 {
		t.Errorf("ExpectFCM with ValidateOnly false returned %d records; want both real sends", len(got))
	}
	if got := mock.FCMMessages(mockapnstest.FCMFilter{Token: phone.Token, ValidateOnly: &dryRun}); len(got) != 2 {
		t.Errorf("FCMMessages with ValidateOnly false returned %d records; want both real sends", len(got))
	}
	dryRun = true
	if got := mock.FCMMessages(mockapnstest.FCMFilter{Token: phone.Token, ValidateOnly: &dryRun}); len(got) != 0 {
		t.Errorf("FCMMessages with ValidateOnly true returned %d records; there was no dry run", len(got))
	}
}

func TestExpectFCMWaitsUntilTimeout(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	phone := mock.RegisterFCM(mockapnstest.FCMApp{})
	sender := newFirebaseSender(t, mock.HTTPClient(), mock.FCMURL()+"/v1", mock.FCMServiceAccount())
	sender.grant(t) // so the send below is quick
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(300 * time.Millisecond)
		sender.send(t, notificationTo(phone.Token, "Later"))
	}()
	got := mock.ExpectFCM(t, mockapnstest.FCMFilter{Token: phone.Token, Count: 1, Timeout: 10 * time.Second})
	<-done
	if len(got) != 1 || got[0].Token != phone.Token {
		t.Errorf("ExpectFCM with a Timeout returned %+v; want the send that came later", got)
	}

	// With nothing recorded, the kit says so before the mock's message.
	mock.Clear()
	fake := &recordingTB{TB: t}
	start := time.Now()
	fake.run(func() {
		mock.ExpectFCM(fake, mockapnstest.FCMFilter{Token: phone.Token, Timeout: 200 * time.Millisecond})
	})
	failure := fake.onlyError(t)
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Errorf("ExpectFCM gave up after %v; want it to ask until its 200ms Timeout", waited)
	}
	if !strings.HasPrefix(failure, "mockapnstest: no FCM request reached the mock.") ||
		!strings.Contains(failure, "\nexpect: FAILED — wanted at least 1 FCM record with token=") {
		t.Errorf("failure with nothing recorded:\n%s\nwant the kit's hint, then the mock's message", failure)
	}
}

func TestFCMWithoutWithFCMSaysHowToGetIt(t *testing.T) {
	fake := &recordingTB{TB: t}
	mock := startThrough(t, fake)
	fake.run(func() { mock.FCMURL() })
	if got := fake.onlyFatal(t); !strings.Contains(got, "FCMURL: this mock serves no FCM; start it with Start(t, mockapnstest.WithFCM())") {
		t.Errorf("message %q should say to start the mock WithFCM", got)
	}
	fake.fatals = nil
	fake.run(func() { mock.Transport() })
	if got := fake.onlyFatal(t); !strings.Contains(got, "Start(t, mockapnstest.WithFCM())") {
		t.Errorf("message %q should name WithFCM too", got)
	}
}
