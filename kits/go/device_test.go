package mockapnstest_test

import (
	"strings"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// outcomes lists what happened to one push, in timeline order.
func outcomes(entries []mockapnstest.TimelineEntry, apnsID string) []string {
	var list []string
	for _, e := range entries {
		if e.APNsID == apnsID {
			list = append(list, e.Outcome)
		}
	}
	return list
}

func TestAnOfflineDeviceKeepsOneOfTwoCollapsedPushesAndShowsTheLaterOnceOnline(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	one, two := 1, 2
	mock.SetDeviceOnline(phone, false)
	packed := sendAlert(t, mock, client, phone, alert{title: "Packed", body: "Order 42", badge: &one, collapseID: "order-42"})
	shipped := sendAlert(t, mock, client, phone, alert{title: "Shipped", body: "Order 42", badge: &two, collapseID: "order-42"})
	if packed.status != 200 || shipped.status != 200 {
		t.Fatalf("pushes answered %+v and %+v, want 200 (an offline device's pushes are accepted)", packed, shipped)
	}

	offline := mock.Device(phone)
	if offline.Online || len(offline.Notifications) != 0 || offline.Badge != 0 {
		t.Errorf("offline screen: online %v, %d notifications, badge %d; want offline, none, 0",
			offline.Online, len(offline.Notifications), offline.Badge)
	}
	if len(offline.Stored) != 1 || offline.Stored[0].APNsID != shipped.apnsID || offline.Stored[0].Topic != appTopic {
		t.Errorf("stored %+v; want only the later push %s (APNs keeps one per app)", offline.Stored, shipped.apnsID)
	}

	mock.SetDeviceOnline(phone, true)
	screen := mock.Device(strings.ToUpper(phone))
	if !screen.Online || len(screen.Stored) != 0 || screen.Token != phone || screen.Badge != 2 {
		t.Errorf("online screen: online %v, stored %+v, token %s, badge %d; want online, nothing stored, %s, badge 2",
			screen.Online, screen.Stored, screen.Token, screen.Badge, phone)
	}
	if len(screen.Notifications) != 1 {
		t.Fatalf("the screen shows %+v; want only the later push", screen.Notifications)
	}
	shown := mock.ExpectShown(t, phone, "Shipped")
	if shown != screen.Notifications[0] || shown.APNsID != shipped.apnsID || shown.Body != "Order 42" ||
		shown.CollapseID != "order-42" || shown.Topic != appTopic {
		t.Errorf("ExpectShown returned %+v; want the shown push %s", shown, shipped.apnsID)
	}

	timeline := mock.Timeline(phone)
	first := outcomes(timeline, packed.apnsID)
	if len(timeline) == 0 || timeline[0].APNsID != packed.apnsID || timeline[0].Rule != "11-store-and-forward" ||
		first[0] != "stored" || first[len(first)-1] != "replaced" {
		t.Errorf("the first push went %v (timeline %+v); want stored first, replaced last", first, timeline)
	}
	if later := outcomes(timeline, shipped.apnsID); len(later) == 0 || later[len(later)-1] != "delivered" {
		t.Errorf("the later push went %v; want delivered last", later)
	}
}

func TestExpectShownFailureListsWhatTheScreenShows(t *testing.T) {
	mock := mockapnstest.Start(t)
	client := mock.Client()
	one := 1
	packed := sendAlert(t, mock, client, phone, alert{title: "Packed", body: "Order 42", threadID: "order-42"})
	shipped := sendAlert(t, mock, client, phone, alert{title: "Shipped", body: "Order 42", threadID: "order-42", badge: &one})

	fake := &recordingTB{TB: t}
	fake.run(func() { mock.ExpectShown(fake, phone, "Cancelled") })
	want := strings.Join([]string{
		`Expected device 00fc13ad…1de8f0 to show a notification with title "Cancelled", but none of the 2 it shows matched (newest first):`,
		`  title "Shipped", body "Order 42" (apns-id ` + shipped.apnsID + `, thread-id order-42)`,
		`  title "Packed", body "Order 42" (apns-id ` + packed.apnsID + `, thread-id order-42)`,
		"Device: online, app foreground, badge 1.",
	}, "\n")
	if got := fake.onlyError(t); got != want {
		t.Errorf("failure message:\n%s\nwant:\n%s", got, want)
	}

	mock.SetDeviceOnline(tablet, false)
	held := sendAlert(t, mock, client, tablet, alert{title: "Shipped", body: "Order 42"})
	fake = &recordingTB{TB: t}
	fake.run(func() { mock.ExpectShown(fake, tablet, "") })
	want = `Expected device 11aa22bb…8899aa to show a notification, but it shows no notifications.` + "\n" +
		`Device: offline, app foreground, badge 0; APNs holds 1 stored push for it (apns-id ` + held.apnsID + `).`
	if got := fake.onlyError(t); got != want {
		t.Errorf("failure message:\n%s\nwant:\n%s", got, want)
	}
}

func TestChangeDeviceOfflineUntilComesBackOnItsOwnAndInstantsReadAnyMoment(t *testing.T) {
	mock := mockapnstest.Start(t)
	now := mock.Device(phone).At // the mock's clock
	back := now.Add(time.Hour)
	mock.ChangeDevice(phone, mockapnstest.DeviceChange{OfflineUntil: back, AppState: "background",
		Settings: map[string]interface{}{"background_budget_per_hour": 1}})
	a := send(t, mock, mock.Client(), phone, appTopic, "While away")

	if screen := mock.Device(phone); screen.Online || screen.AppState != "background" ||
		!strings.Contains(string(screen.Raw), `"limit":1`) {
		t.Errorf("now: online %v, app %s, raw %s; want offline, background, a budget of 1", screen.Online,
			screen.AppState, screen.Raw)
	}
	later := mock.DeviceAt(phone, back)
	if !later.Online || !later.At.Equal(back) || len(later.Notifications) != 1 || later.Notifications[0].APNsID != a.apnsID {
		t.Errorf("at %v: online %v, at %v, notifications %+v; want online, showing %s", back, later.Online, later.At,
			later.Notifications, a.apnsID)
	}
	if got := outcomes(mock.Timeline(phone), a.apnsID); len(got) != 1 || got[0] != "stored" {
		t.Errorf("until now the push went %v; want [stored]", got)
	}
	if got := outcomes(mock.TimelineUntil(phone, back), a.apnsID); len(got) != 2 || got[1] != "delivered" {
		t.Errorf("until %v the push went %v; want [stored delivered]", back, got)
	}
}

func TestATapAtAnInstantOpensTheAppAndClearsTheNotification(t *testing.T) {
	mock := mockapnstest.Start(t)
	mock.ChangeDevice(phone, mockapnstest.DeviceChange{AppState: "background"})
	send(t, mock, mock.Client(), phone, appTopic, "Your table is ready")
	shown := mock.ExpectShown(t, phone, "Your table is ready")

	tapAt := shown.Time.Add(time.Millisecond)
	mock.AddDeviceChange(phone, "tap", tapAt, map[string]interface{}{"apns_id": shown.APNsID})
	after := mock.DeviceAt(phone, tapAt)
	if len(after.Notifications) != 0 || after.AppState != "foreground" {
		t.Errorf("after the tap: notifications %+v, app %s; want none, foreground", after.Notifications, after.AppState)
	}
	timeline := mock.TimelineUntil(phone, tapAt)
	if last := timeline[len(timeline)-1]; last.APNsID != shown.APNsID || last.Outcome != "tapped" || last.Rule != "5-tap" {
		t.Errorf("last timeline entry %+v; want the tap of %s (5-tap)", last, shown.APNsID)
	}
}

func TestChangeDeviceKeepsTheStateAndFailsOnARefusalOrNothingToChange(t *testing.T) {
	mock := mockapnstest.Start(t)
	offline := false
	mock.ChangeDevice(watch, mockapnstest.DeviceChange{State: mockapnstest.Expired(), Online: &offline})
	if a := send(t, mock, mock.Client(), watch, appTopic, "Gone"); a.status != 410 || a.reason != "ExpiredToken" {
		t.Errorf("push to an expired token: got %+v, want 410 ExpiredToken", a)
	}
	if screen := mock.Device(watch); screen.Online || len(screen.Stored) != 0 {
		t.Errorf("screen: online %v, stored %+v; want offline with nothing stored (a rejected push never reaches "+
			"the device)", screen.Online, screen.Stored)
	}

	fake := &recordingTB{TB: t}
	faked := startThrough(t, fake) // its methods report through fake
	for _, c := range []struct {
		change func()
		want   []string
	}{
		{func() { faked.ChangeDevice(watch, mockapnstest.DeviceChange{AppState: "asleep"}) }, []string{
			"PUT /api/v1/devices/" + watch + " with 400", `"app_state" is one of foreground, background`}},
		{func() { faked.ChangeDevice(watch, mockapnstest.DeviceChange{At: time.Now()}) }, []string{
			"ChangeDevice(" + watch + ") was given nothing to change: set State, Online"}},
		{func() { faked.AddDeviceChange(watch, "reboot", time.Time{}, nil) }, []string{
			"POST /api/v1/devices/" + watch + "/changes with 400", "not a device change"}},
	} {
		fake.errors, fake.fatals = nil, nil
		fake.run(c.change)
		got := fake.onlyFatal(t)
		for _, want := range c.want {
			if !strings.Contains(got, want) {
				t.Errorf("the failure %q should say %q", got, want)
			}
		}
	}
}
