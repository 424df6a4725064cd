package mockapnstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A virtual device is what the mock computes a device shows over time from the device's changes (online, offline,
// app state, settings, taps) and the pushes it accepted for it: store-and-forward while offline, apns-collapse-id
// replacement, badge, Live Activities (the repository's docs/device-model.md). Changes happen now on the mock's
// clock unless they name an instant; a screen or timeline can be read at any instant, the future too.

// DeviceScreen is what a virtual device shows at one instant (GET /api/v1/devices/{token}/screen).
type DeviceScreen struct {
	At            time.Time           // the instant shown
	Token         string              // the device token, lowercase
	Online        bool                // whether the device reaches APNs
	AppState      string              // foreground, background, notRunning or forceQuit
	Badge         int                 // the app icon's badge (0: none)
	Notifications []ShownNotification // Notification Center, newest first
	Stored        []StoredPush        // what APNs holds while the device is offline
	// LiveActivities are the device's Live Activities as the API describes them (token, content_state, stale, …).
	LiveActivities []map[string]interface{}
	// Raw is the whole answer: also groups, sounds, background_budget and the model's numbers.
	Raw json.RawMessage
}

// ShownNotification is one notification in Notification Center.
type ShownNotification struct {
	APNsID     string    // the apns-id APNs answered the push with
	Title      string    // aps.alert.title
	Body       string    // aps.alert.body (or aps.alert when it is a string)
	ThreadID   string    // thread-id, which groups it
	CollapseID string    // apns-collapse-id, by which a later push replaces it
	Topic      string    // apns-topic
	Time       time.Time // when it was delivered
}

// StoredPush is a push APNs holds for an offline device.
type StoredPush struct {
	APNsID           string
	Topic            string
	PushType         string
	Time             time.Time // when APNs received it
	DeliverableUntil time.Time // when it is dropped if the device is still offline
	LimitedBy        string    // what set DeliverableUntil: apns-expiration or storage-limit
}

// TimelineEntry is one thing that happened to one push on the device (GET /api/v1/devices/{token}/timeline).
type TimelineEntry struct {
	APNsID      string
	Time        time.Time
	Outcome     string // delivered, stored, replaced, dropped, throttled or tapped
	Rule        string // the rule that decided it, e.g. 11-store-and-forward
	Explanation string // why, in words
	// Raw is the whole entry: also the delivery's simulation or the tap's outcome.
	Raw json.RawMessage
}

// DeviceChange changes a virtual device (PUT /api/v1/devices/{token}); zero fields are left as they are.
type DeviceChange struct {
	// State, when set (Unregistered(), Expired(), …), is how APNs answers pushes to the device, as SetDevice sets it.
	State DeviceState
	// Online takes the device offline (false: APNs stores pushes) or back online (true); nil leaves it.
	Online *bool
	// OfflineUntil takes the device offline until then.
	OfflineUntil time.Time
	// AppState moves the app: foreground, background, notRunning or forceQuit.
	AppState string
	// Settings replaces the device's settings, e.g. {"background_budget_per_hour": 2,
	// "profile": {"authorization": "denied"}}.
	Settings map[string]interface{}
	// PushToStartTokens are the tokens its Live Activities are started through.
	PushToStartTokens []string
	// At is when the changes happen; zero: now on the mock's clock.
	At time.Time
}

func (c DeviceChange) body() map[string]interface{} {
	body := map[string]interface{}{}
	for key, value := range c.State.body {
		body[key] = value
	}
	if c.Online != nil {
		body["online"] = *c.Online
	}
	if !c.OfflineUntil.IsZero() {
		body["offline_until"] = c.OfflineUntil.UnixMilli()
	}
	if c.AppState != "" {
		body["app_state"] = c.AppState
	}
	if c.Settings != nil {
		body["settings"] = c.Settings
	}
	if c.PushToStartTokens != nil {
		body["push_to_start_tokens"] = c.PushToStartTokens
	}
	if !c.At.IsZero() {
		body["at"] = c.At.UnixMilli()
	}
	return body
}

// ChangeDevice applies c to device token. The binary checks it; a refusal (or an empty change) fails the test.
func (m *Mock) ChangeDevice(token string, c DeviceChange) {
	m.tb.Helper()
	body := c.body()
	if len(body) == 0 || (len(body) == 1 && body["at"] != nil) {
		m.tb.Fatalf("mockapnstest: ChangeDevice(%s) was given nothing to change: set State, Online, OfflineUntil, "+
			"AppState, Settings or PushToStartTokens", token)
	}
	m.must(m.call(http.MethodPut, devicePath(token), body, nil))
}

// SetDeviceOnline takes device token offline (APNs stores its pushes, one per app) or back online (APNs delivers
// what it stored), now on the mock's clock.
func (m *Mock) SetDeviceOnline(token string, online bool) {
	m.tb.Helper()
	m.ChangeDevice(token, DeviceChange{Online: &online})
}

// AddDeviceChange records one change of the virtual device at `at` (zero: now), e.g. "tap" with
// {"apns_id": …} (and "action" for an action button), "offline", "online", "app_state" with {"state": …} or
// "live_activity_token" with {"started_by": …, "token": …}. A refusal fails the test.
func (m *Mock) AddDeviceChange(token, change string, at time.Time, fields map[string]interface{}) {
	m.tb.Helper()
	body := map[string]interface{}{"change": change}
	for key, value := range fields {
		body[key] = value
	}
	if !at.IsZero() {
		body["at"] = at.UnixMilli()
	}
	m.must(m.call(http.MethodPost, devicePath(token)+"/changes", body, nil))
}

// Device returns what device token shows now on the mock's clock.
func (m *Mock) Device(token string) DeviceScreen {
	m.tb.Helper()
	return m.DeviceAt(token, time.Time{})
}

// DeviceAt returns what device token shows at `at` (zero: now), computed from its changes and the pushes the mock
// accepted for it.
func (m *Mock) DeviceAt(token string, at time.Time) DeviceScreen {
	m.tb.Helper()
	screen, err := m.device(token, at)
	m.must(err)
	return screen
}

// Timeline returns what happened to each push of device token until now, oldest first: one entry per outcome
// (a push can be stored, then replaced, delivered or dropped), with the rule and why.
func (m *Mock) Timeline(token string) []TimelineEntry {
	m.tb.Helper()
	return m.TimelineUntil(token, time.Time{})
}

// TimelineUntil is Timeline up to `until` (zero: now).
func (m *Mock) TimelineUntil(token string, until time.Time) []TimelineEntry {
	m.tb.Helper()
	var answer struct {
		Entries []json.RawMessage `json:"entries"`
	}
	m.must(m.call(http.MethodGet, devicePath(token)+"/timeline"+instantQuery("until", until), nil, &answer))
	entries := make([]TimelineEntry, 0, len(answer.Entries))
	for _, raw := range answer.Entries {
		var e struct {
			APNsID      string `json:"apns_id"`
			Time        int64  `json:"time"`
			Outcome     string `json:"outcome"`
			Rule        string `json:"rule"`
			Explanation string `json:"explanation"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			m.tb.Fatalf("mockapnstest: a timeline entry the kit cannot read (%v): %.200s", err, raw)
		}
		entries = append(entries, TimelineEntry{APNsID: e.APNsID, Time: time.UnixMilli(e.Time), Outcome: e.Outcome,
			Rule: e.Rule, Explanation: e.Explanation, Raw: raw})
	}
	return entries
}

// ExpectShown checks that device token shows a notification titled title now (any notification when title is "")
// and returns the newest such one. Otherwise it reports t.Errorf listing every notification the screen shows and
// the device's state (offline, stored pushes, badge), and returns a zero ShownNotification.
func (m *Mock) ExpectShown(t testing.TB, token, title string) ShownNotification {
	t.Helper()
	screen, err := m.device(token, time.Time{})
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	for _, n := range screen.Notifications {
		if title == "" || n.Title == title {
			return n
		}
	}
	what := "a notification"
	if title != "" {
		what += " with title " + strconv.Quote(title)
	}
	t.Errorf("%s", screen.failure(what))
	return ShownNotification{}
}

// failure words an unmet ExpectShown: what was wanted, every notification shown (newest first), the device's state.
func (s DeviceScreen) failure(what string) string {
	header := fmt.Sprintf("Expected device %s to show %s", shortToken(s.Token), what)
	var lines []string
	switch len(s.Notifications) {
	case 0:
		lines = append(lines, header+", but it shows no notifications.")
	case 1:
		lines = append(lines, header+", but the only one it shows did not match:")
	default:
		lines = append(lines, fmt.Sprintf("%s, but none of the %d it shows matched (newest first):", header, len(s.Notifications)))
	}
	for _, n := range s.Notifications {
		lines = append(lines, "  "+n.Summary())
	}
	online := "offline"
	if s.Online {
		online = "online"
	}
	state := fmt.Sprintf("Device: %s, app %s, badge %d", online, s.AppState, s.Badge)
	if len(s.Stored) > 0 {
		var ids []string
		for _, p := range s.Stored {
			ids = append(ids, "apns-id "+p.APNsID)
		}
		plural := "es"
		if len(s.Stored) == 1 {
			plural = ""
		}
		state += fmt.Sprintf("; APNs holds %d stored push%s for it (%s)", len(s.Stored), plural, strings.Join(ids, ", "))
	}
	return strings.Join(append(lines, state+"."), "\n")
}

// Summary is one line, e.g. `title "Shipped", body "Order 42" (apns-id …, collapse-id order-42)`.
func (n ShownNotification) Summary() string {
	quoted := func(s string) string {
		if s == "" {
			return "none"
		}
		return strconv.Quote(s)
	}
	ids := []string{"apns-id " + n.APNsID}
	if n.ThreadID != "" {
		ids = append(ids, "thread-id "+n.ThreadID)
	}
	if n.CollapseID != "" {
		ids = append(ids, "collapse-id "+n.CollapseID)
	}
	return fmt.Sprintf("title %s, body %s (%s)", quoted(n.Title), quoted(n.Body), strings.Join(ids, ", "))
}

func (m *Mock) device(token string, at time.Time) (DeviceScreen, error) {
	var raw json.RawMessage
	if err := m.call(http.MethodGet, devicePath(token)+"/screen"+instantQuery("at", at), nil, &raw); err != nil {
		return DeviceScreen{}, err
	}
	var s struct {
		At            int64  `json:"at"`
		Token         string `json:"token"`
		Online        bool   `json:"online"`
		AppState      string `json:"app_state"`
		Badge         int    `json:"badge"`
		Notifications []struct {
			APNsID     string  `json:"apns_id"`
			Title      *string `json:"title"`
			Body       *string `json:"body"`
			ThreadID   *string `json:"thread_id"`
			CollapseID *string `json:"collapse_id"`
			Topic      *string `json:"topic"`
			Time       int64   `json:"time"`
		} `json:"notifications"`
		Stored []struct {
			APNsID           string `json:"apns_id"`
			Topic            string `json:"topic"`
			PushType         string `json:"push_type"`
			Time             int64  `json:"time"`
			DeliverableUntil int64  `json:"deliverable_until"`
			LimitedBy        string `json:"limited_by"`
		} `json:"stored"`
		LiveActivities []map[string]interface{} `json:"live_activities"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return DeviceScreen{}, fmt.Errorf("the screen of %s is JSON the kit cannot read (%v): %.200s", token, err, raw)
	}
	screen := DeviceScreen{At: time.UnixMilli(s.At), Token: s.Token, Online: s.Online, AppState: s.AppState,
		Badge: s.Badge, LiveActivities: s.LiveActivities, Raw: raw}
	for _, n := range s.Notifications {
		screen.Notifications = append(screen.Notifications, ShownNotification{APNsID: n.APNsID, Title: deref(n.Title),
			Body: deref(n.Body), ThreadID: deref(n.ThreadID), CollapseID: deref(n.CollapseID), Topic: deref(n.Topic),
			Time: time.UnixMilli(n.Time)})
	}
	for _, p := range s.Stored {
		screen.Stored = append(screen.Stored, StoredPush{APNsID: p.APNsID, Topic: p.Topic, PushType: p.PushType,
			Time: time.UnixMilli(p.Time), DeliverableUntil: time.UnixMilli(p.DeliverableUntil), LimitedBy: p.LimitedBy})
	}
	return screen, nil
}

func devicePath(token string) string { return "/api/v1/devices/" + url.PathEscape(token) }

// instantQuery is `?name=<ms since 1970>`, or "" for the zero time (the mock's now).
func instantQuery(name string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return "?" + name + "=" + strconv.FormatInt(t.UnixMilli(), 10)
}
