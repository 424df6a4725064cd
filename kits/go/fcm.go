package mockapnstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The FCM front door (`mockapns serve --fcm`, the repository's docs/fcm.md): the mock answers Firebase senders as
// Google does (the service account's OAuth grant, FCM HTTP v1's messages:send, IID topic management) and turns each
// iOS message into the APNs push FCM sends, through the mock. Registrations are the tokens an app instance would get
// from FCM; each FCM request is recorded (FCMMessages) beside the APNs pushes it became.

// FCMProject is the project of FCMServiceAccount, the one the mock makes a service account for at start.
const FCMProject = "mockapns-test"

// googleHosts are Google's names a Firebase sender calls, each on 443: FCM HTTP v1 (messages:send), the service
// account's OAuth token exchange (/token, the token_uri of Google's service-account files) and IID topic management
// (firebase-admin-go has no option to move that one).
var googleHosts = map[string][]int{
	"fcm.googleapis.com":    {443},
	"oauth2.googleapis.com": {443},
	"iid.googleapis.com":    {443},
}

// fcmFrontDoor is where the FCM front door listens and what it trusts.
type fcmFrontDoor struct {
	url            string
	ports          map[int]int // Google's 443 → the port behind Google's names
	serviceAccount string      // a service-account file of FCMProject, on this machine
	caFile         string
	caPEM          []byte
}

// startFCM reads the ready file's FCM fields. In container mode the ready file's service account is a path in the
// container, so the mock makes one for FCMProject (trusted as that one is) and the kit keeps it on this machine.
func (m *Mock) startFCM(ready readyFile, container bool) (*fcmFrontDoor, error) {
	port, ok := ready.FCMPorts["443"]
	if ready.FCMURL == "" || !ok || port <= 0 {
		return nil, fmt.Errorf("the mock was started with FCM, but its ready file names no fcm_url or no port for "+
			"Google's 443 (fcm_url %q, fcm_ports %v); this mockapns does not serve FCM as the kit expects: use a newer build",
			ready.FCMURL, ready.FCMPorts)
	}
	f := &fcmFrontDoor{url: ready.FCMURL, ports: map[int]int{443: port}, caFile: ready.FCMCAFile}
	if f.caFile == "" {
		f.caFile = m.CAFile
	}
	var err error
	if f.caPEM, err = os.ReadFile(f.caFile); err != nil {
		return nil, fmt.Errorf("cannot read the CA of the mock's FCM ports: %v", err)
	}
	f.serviceAccount = ready.FCMServiceAccount
	if container || f.serviceAccount == "" {
		if f.serviceAccount, err = m.newServiceAccount(FCMProject, ""); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// needFCM fails the test when the mock serves no FCM, saying how to get it.
func (m *Mock) needFCM(what string) *fcmFrontDoor {
	m.tb.Helper()
	if m.fcm == nil {
		m.tb.Fatalf("mockapnstest: %s: this mock serves no FCM; start it with Start(t, mockapnstest.WithFCM()) "+
			"(mockapns serve --fcm)", what)
	}
	return m.fcm
}

// FCMURL is the mock's own FCM port, e.g. https://127.0.0.1:40127 (TLS from the mock's CA: HTTPClient trusts it).
// For firebase-admin-go: option.WithEndpoint(mock.FCMURL() + "/v1"). Google's names reach the same front door
// through Transport and HTTPClient. It needs WithFCM.
func (m *Mock) FCMURL() string {
	m.tb.Helper()
	return m.needFCM("FCMURL").url
}

// FCMServiceAccount is the path of a service-account key file of project FCMProject that the mock trusts, as
// Google's console hands one out (token_uri https://oauth2.googleapis.com/token), on this machine in either mode.
// Another project's: NewFCMServiceAccount. It needs WithFCM.
func (m *Mock) FCMServiceAccount() string {
	m.tb.Helper()
	return m.needFCM("FCMServiceAccount").serviceAccount
}

// FCMCAFile is the PEM file of the CA the FCM ports' certificate chains to (this mock's own); HTTPClient and Transport
// trust it already. It needs WithFCM.
func (m *Mock) FCMCAFile() string {
	m.tb.Helper()
	return m.needFCM("FCMCAFile").caFile
}

// NewFCMServiceAccount writes a new service-account key file for project, which the mock trusts from then on (the
// project exists once it does), to a file of this test's own, and returns its path. A refusal (a project id must be
// 6 to 30 of a-z, 0-9 and -, a letter first) fails the test. It needs WithFCM.
func (m *Mock) NewFCMServiceAccount(project string) string {
	m.tb.Helper()
	m.needFCM("NewFCMServiceAccount")
	path, err := m.newServiceAccount(project, "")
	m.must(err)
	return path
}

// newServiceAccount asks the control API for a service account of project and writes it to dir (a new temporary
// folder when "") readable by this user only: it holds a private key.
func (m *Mock) newServiceAccount(project, dir string) (string, error) {
	var account map[string]interface{}
	if err := m.call(http.MethodPost, "/api/v1/fcm/projects/"+url.PathEscape(project)+"/service-account", nil, &account); err != nil {
		return "", err
	}
	if account["type"] != "service_account" {
		return "", fmt.Errorf("POST /api/v1/fcm/projects/%s/service-account answered no service-account JSON: %v", project, account)
	}
	if dir == "" {
		dir = m.tb.TempDir()
	}
	keyID, _ := account["private_key_id"].(string)
	if len(keyID) > 12 {
		keyID = keyID[:12]
	}
	path := filepath.Join(dir, "service-account-"+fileSafe(project)+"-"+fileSafe(keyID)+".json")
	data, err := json.MarshalIndent(account, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return "", err
	}
	return path, nil
}

func fileSafe(text string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, text)
	if safe == "" {
		return "x"
	}
	return safe
}

// FCMApp is an app instance to register with the mock's FCM (POST /api/v1/fcm/registrations); zero fields take the
// defaults.
type FCMApp struct {
	Project   string // default FCMProject
	Platform  string // ios (default), android or web
	BundleID  string // the app's bundle id or package name; default com.example.app
	APNsToken string // iOS: the APNs device token behind the registration; default one the mock makes
}

// FCMRegistration is an app instance registered with the mock's FCM: Token is what the sender sends to. An iOS
// registration is backed by the APNs device token APNsToken, so by a virtual iPhone: Device(r.APNsToken),
// SetDevice(r.APNsToken, Unregistered()) (sends then answer 404 UNREGISTERED) and faults matching it are the APNs ones.
type FCMRegistration struct {
	Token     string   `json:"token"`
	FID       string   `json:"fid"`
	Platform  string   `json:"platform"`
	Project   string   `json:"project"`
	BundleID  string   `json:"bundle_id"`
	APNsToken string   `json:"apns_token"`
	Topics    []string `json:"topics"`
}

// RegisterFCM registers app with the mock's FCM, as the Firebase SDK in an app does, and returns its registration.
// A refusal fails the test. It needs WithFCM.
func (m *Mock) RegisterFCM(app FCMApp) FCMRegistration {
	m.tb.Helper()
	m.needFCM("RegisterFCM")
	body := map[string]interface{}{"project": orDefault(app.Project, FCMProject), "platform": orDefault(app.Platform, "ios"),
		"bundle_id": orDefault(app.BundleID, "com.example.app")}
	switch body["platform"] {
	case "ios", "android", "web":
	default:
		m.tb.Fatalf("mockapnstest: RegisterFCM: Platform is ios, android or web, not %q", app.Platform)
	}
	if app.APNsToken != "" {
		if body["platform"] != "ios" {
			m.tb.Fatalf("mockapnstest: RegisterFCM: APNsToken is for an iOS registration, not %s", body["platform"])
		}
		body["apns_token"] = app.APNsToken
	}
	var registration FCMRegistration
	m.must(m.call(http.MethodPost, "/api/v1/fcm/registrations", body, &registration))
	return registration
}

func orDefault(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}

// FCMMessage is one FCM request the mock answered (messages:send), accepted or refused, as the control API recorded
// it: the message as sent, the answer, and the APNs pushes it became (APNsIDs; APNsPushesOf reads them).
type FCMMessage struct {
	Seq          uint64 // position in the FCM recording, from 1
	Name         string // projects/P/messages/ID as answered; "" when refused or a dry run
	Project      string // the project of the request's path
	Status       int    // the HTTP status answered
	ValidateOnly bool   // validate_only (the SDKs' dry run): checked, not delivered
	Token        string // the registration token sent to, for a message to one device
	Topic        string // the topic sent to
	Condition    string // the condition sent to
	Transport    string // h2 or http/1.1: how the sender spoke
	APNsIDs      []string
	// ErrorStatus is the google.rpc status of a refusal (INVALID_ARGUMENT, NOT_FOUND…), ErrorCode FCM's errorCode
	// (UNREGISTERED, SENDER_ID_MISMATCH…); "" for a 200.
	ErrorStatus, ErrorCode string
	// Message is the message member as the sender wrote it; Answer the answer's body; Raw the whole record.
	Message, Answer, Raw json.RawMessage
}

// Summary is one readable line, e.g. `#3 FCM message to token cJ3sX0aB…Qw9zPk, project mockapns-test: accepted
// (200), 1 APNs push; title "Shipped"`.
func (f FCMMessage) Summary() string {
	to := "no target"
	switch {
	case f.Token != "":
		to = "token " + shortToken(f.Token)
	case f.Topic != "":
		to = "topic " + f.Topic
	case f.Condition != "":
		to = "condition " + f.Condition
	}
	text := fmt.Sprintf("#%d FCM message to %s, project %s: %s", f.Seq, to, f.Project, f.ResponseText())
	var message struct {
		Notification struct {
			Title *string `json:"title"`
		} `json:"notification"`
	}
	if json.Unmarshal(f.Message, &message) == nil && message.Notification.Title != nil {
		text += "; title " + strconv.Quote(*message.Notification.Title)
	}
	return text
}

// ResponseText is `accepted (200), 1 APNs push`, `accepted (200), dry run` or `refused 404 NOT_FOUND/UNREGISTERED`.
func (f FCMMessage) ResponseText() string {
	if f.Status == 200 {
		text := "accepted (200)"
		if f.ValidateOnly {
			text += ", dry run"
		}
		switch n := len(f.APNsIDs); {
		case n == 1:
			text += ", 1 APNs push"
		case n > 1:
			text += fmt.Sprintf(", %d APNs pushes", n)
		}
		return text
	}
	var words []string
	for _, word := range []string{f.ErrorStatus, f.ErrorCode} {
		if word != "" {
			words = append(words, word)
		}
	}
	if len(words) == 0 {
		return fmt.Sprintf("refused %d", f.Status)
	}
	return fmt.Sprintf("refused %d %s", f.Status, strings.Join(words, "/"))
}

// fcmRecord is the part of an FCM record the kit reads.
type fcmRecord struct {
	Seq          uint64          `json:"seq"`
	Name         *string         `json:"name"`
	Project      string          `json:"project"`
	Status       int             `json:"status"`
	ValidateOnly bool            `json:"validate_only"`
	Token        string          `json:"token"`
	Topic        string          `json:"topic"`
	Condition    string          `json:"condition"`
	Transport    string          `json:"transport"`
	APNsIDs      []string        `json:"apns_ids"`
	Message      json.RawMessage `json:"message"`
	Answer       json.RawMessage `json:"answer"`
}

func (r fcmRecord) message(raw json.RawMessage) FCMMessage {
	f := FCMMessage{Seq: r.Seq, Name: deref(r.Name), Project: r.Project, Status: r.Status, ValidateOnly: r.ValidateOnly,
		Token: r.Token, Topic: r.Topic, Condition: r.Condition, Transport: r.Transport, APNsIDs: r.APNsIDs,
		Message: r.Message, Answer: r.Answer, Raw: raw}
	var answer struct {
		Error struct {
			Status  string `json:"status"`
			Details []struct {
				Type      string `json:"@type"`
				ErrorCode string `json:"errorCode"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(r.Answer, &answer) == nil {
		f.ErrorStatus = answer.Error.Status
		for _, detail := range answer.Error.Details {
			if strings.HasSuffix(detail.Type, "google.firebase.fcm.v1.FcmError") {
				f.ErrorCode = detail.ErrorCode
			}
		}
	}
	return f
}

// FCMFilter picks recorded FCM requests; empty fields match anything.
type FCMFilter struct {
	Project   string // the project of the request's path
	Name      string // the whole projects/P/messages/ID, or its last part
	Token     string // the registration token sent to
	Topic     string // the topic sent to
	Condition string // the condition sent to, as written
	Status    int    // the status answered; 0 = any
	// ValidateOnly picks dry runs (true) or real sends (false); nil = either.
	ValidateOnly *bool
	// Count is how many records ExpectFCM wants to match: 0 means at least one, n > 0 exactly n.
	Count int
	// None makes ExpectFCM want no matching record at all (Count must then be 0).
	None bool
	// Timeout is how long ExpectFCM keeps asking until the expectation is met; 0 asks once.
	Timeout time.Duration
}

// query is f's filters as GET /api/v1/fcm/messages and GET /api/v1/fcm/expect take them.
func (f FCMFilter) query() url.Values {
	query := url.Values{}
	set := func(name, value string) {
		if value != "" {
			query.Set(name, value)
		}
	}
	set("project", f.Project)
	set("name", f.Name)
	set("token", f.Token)
	set("topic", f.Topic)
	if f.Status != 0 {
		set("status", strconv.Itoa(f.Status))
	}
	set("condition", f.Condition)
	if f.ValidateOnly != nil {
		query.Set("validate_only", strconv.FormatBool(*f.ValidateOnly))
	}
	return query
}

// expectQuery is f as GET /api/v1/fcm/expect asks it: every filter and the quantity.
func (f FCMFilter) expectQuery() url.Values {
	query := f.query()
	switch {
	case f.None:
		query.Set("none", "true")
	case f.Count > 0:
		query.Set("count", strconv.Itoa(f.Count))
	default:
		query.Set("at_least", "1")
	}
	return query
}

// String is the expectation as GET /api/v1/fcm/expect's query, e.g. `count=1&status=404&token=…`.
func (f FCMFilter) String() string { return f.expectQuery().Encode() }

// FCMMessages returns the recorded FCM requests matching f's filters (f.Count, None and Timeout are ignored), oldest
// first, as the control API filters them. It needs WithFCM.
func (m *Mock) FCMMessages(f FCMFilter) []FCMMessage {
	m.tb.Helper()
	m.needFCM("FCMMessages")
	list, err := m.fcmMessages(f.query())
	m.must(err)
	return list
}

func (m *Mock) fcmMessages(query url.Values) ([]FCMMessage, error) {
	path := "/api/v1/fcm/messages"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	var answer struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := m.call(http.MethodGet, path, nil, &answer); err != nil {
		return nil, err
	}
	out := make([]FCMMessage, 0, len(answer.Messages))
	for _, raw := range answer.Messages {
		var r fcmRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("an FCM record the kit cannot read (%v): %.200s", err, raw)
		}
		out = append(out, r.message(raw))
	}
	return out, nil
}

// ExpectFCM checks that the mock recorded f.Count FCM requests matching f (at least one when Count is 0, none with
// None) and returns the matching ones, oldest first. The mock checks it (GET /api/v1/fcm/expect, asked again until
// met or f.Timeout has passed) and words a miss: ExpectFCM then reports t.Errorf with the mock's message, which says
// what was wanted, the matching records and the closest others, each miss spelled out. A request is recorded before
// it is answered, so once the sender has its answer, ExpectFCM sees it. It needs WithFCM.
func (m *Mock) ExpectFCM(t testing.TB, f FCMFilter) []FCMMessage {
	t.Helper()
	m.needFCM("ExpectFCM")
	if f.Count < 0 {
		t.Fatalf("mockapnstest: FCMFilter.Count is %d; use 0 for at least one, or the exact number wanted", f.Count)
	}
	if f.None && f.Count != 0 {
		t.Fatalf("mockapnstest: FCMFilter.None and FCMFilter.Count %d were both given: pass one", f.Count)
	}
	answer, err := m.expectation("/api/v1/fcm/expect", f.expectQuery(), f.Timeout)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	matching := []FCMMessage{}
	if len(answer.MatchedSeqs) > 0 {
		all, err := m.fcmMessages(nil)
		if err != nil {
			t.Fatalf("mockapnstest: reading the matching FCM records: %v", err)
		}
		wanted := map[uint64]bool{}
		for _, seq := range answer.MatchedSeqs {
			wanted[seq] = true
		}
		for _, r := range all {
			if wanted[r.Seq] {
				matching = append(matching, r)
			}
		}
	}
	if !answer.Met {
		message := strings.TrimRight(answer.Message, "\n")
		if answer.Considered == 0 {
			message = "mockapnstest: no FCM request reached the mock. Is the sender pointed at mock.FCMURL() (or given " +
				"mock.HTTPClient() for Google's names), with a service account of this mock (mock.FCMServiceAccount())?\n" +
				message
		}
		t.Errorf("%s", message)
	}
	return matching
}

// APNsPushesOf returns the APNs pushes an FCM request became (its APNsIDs), as recorded pushes (Payload with aps and
// FCM's gcm.message_id, google.c.fid…), in the order of APNsIDs. A push the mock has no record of (cleared since?)
// fails the test.
func (m *Mock) APNsPushesOf(message FCMMessage) []Notification {
	m.tb.Helper()
	all, err := m.notifications(nil)
	m.must(err)
	byID := map[string]Notification{}
	for _, n := range all {
		if n.APNsID != "" {
			byID[n.APNsID] = n
		}
	}
	pushes := make([]Notification, 0, len(message.APNsIDs))
	for _, id := range message.APNsIDs {
		n, ok := byID[id]
		if !ok {
			m.tb.Fatalf("mockapnstest: %s names the APNs push %s, which the mock has no record of (cleared since?)",
				message.Summary(), id)
		}
		pushes = append(pushes, n)
	}
	return pushes
}
