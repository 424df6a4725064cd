package mockapnstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// appleSender is a sender as a production app writes it: Apple's URL hard-coded, net/http, a provider token.
type appleSender struct {
	client *http.Client
	token  string
}

// push POSTs an alert to url and returns the status, the reason and the protocol the answer came over.
func (s appleSender) push(t *testing.T, url string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"aps":{"alert":{"title":"Shipped"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("authorization", "bearer "+s.token)
	req.Header.Set("apns-topic", appTopic)
	req.Header.Set("apns-push-type", "alert")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var answer struct{ Reason string }
	if len(body) > 0 {
		if err := json.Unmarshal(body, &answer); err != nil {
			t.Fatalf("POST %s answered %d with a body that is not JSON: %q", url, resp.StatusCode, body)
		}
	}
	return resp.StatusCode, answer.Reason, resp.Proto
}

func TestASenderWithApplesURLReachesTheMockThroughItsTransport(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithAppleHosts())
	sender := appleSender{client: mock.HTTPClient(), token: mock.Token()}

	status, reason, proto := sender.push(t, "https://api.push.apple.com/3/device/"+phone)
	if status != 200 || proto != "HTTP/2.0" {
		t.Fatalf("api.push.apple.com answered %d %s over %s; want 200 over HTTP/2.0", status, reason, proto)
	}
	if status, reason, _ := sender.push(t, "https://api.push.apple.com/3/device/not-a-token"); status != 400 || reason != "BadDeviceToken" {
		t.Errorf("a bad device token got %d %s; want 400 BadDeviceToken", status, reason)
	}
	for _, url := range []string{"https://api.push.apple.com:2197/3/device/", "https://api.sandbox.push.apple.com/3/device/",
		"https://api.development.push.apple.com:2197/3/device/"} {
		if status, reason, _ := sender.push(t, url+tablet); status != 200 {
			t.Errorf("%s answered %d %s; want 200", url, status, reason)
		}
	}
	production := mock.Expect(t, mockapnstest.Filter{Token: phone, Topic: appTopic, Status: 200, Count: 1})
	mock.Expect(t, mockapnstest.Filter{Token: "not-a-token", Status: 400, Reason: "BadDeviceToken", Count: 1})
	others := mock.Expect(t, mockapnstest.Filter{Token: tablet, Status: 200, Count: 3})
	// The environment is the one Apple's host name implies.
	var environments []string
	for _, n := range append(production, others...) {
		environments = append(environments, n.Environment)
	}
	if got := strings.Join(environments, " "); got != "production production development development" {
		t.Errorf("environments %s; want production for api.push.apple.com (443, 2197), development for the others", got)
	}
}

func TestChannelManagementHostsReachTheirOwnListeners(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithAppleHosts())
	client := mock.HTTPClient()
	for _, url := range []string{"https://api-manage-broadcast.sandbox.push.apple.com:2195", "https://api-manage-broadcast.push.apple.com:2196"} {
		req, _ := http.NewRequest(http.MethodGet, url+"/1/apps/"+appTopic+"/all-channels", nil)
		req.Header.Set("authorization", "bearer "+mock.Token())
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.ProtoMajor != 2 {
			t.Errorf("GET %s/…/all-channels answered %d over %s: %s; want 200 over HTTP/2", url, resp.StatusCode, resp.Proto, body)
		}
	}
	// Each host reached its own listener: 2195 is sandbox (development), 2196 production.
	var environments []string
	for _, n := range mock.Notifications(mockapnstest.Filter{}) {
		environments = append(environments, n.Environment)
	}
	if got := strings.Join(environments, " "); got != "development production" {
		t.Errorf("channel management was recorded in %q; want development (2195), then production (2196)", got)
	}
}

func TestTheTransportRefusesPortsAPNsDoesNotServe(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithAppleHosts())
	client := mock.HTTPClient()
	for _, url := range []string{"https://api.push.apple.com:8443/3/device/" + phone,
		"https://api-manage-broadcast.push.apple.com:2195/1/apps/" + appTopic + "/all-channels"} {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET %s answered %d; want a refused connection", url, resp.StatusCode)
			continue
		}
		if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "APNs serves") {
			t.Errorf("GET %s failed with %v; want ECONNREFUSED saying which ports APNs serves", url, err)
		}
	}
	if n := len(mock.Notifications(mockapnstest.Filter{})); n != 0 {
		t.Errorf("the mock recorded %d requests; a refused port must not reach it", n)
	}
}

func TestApplesNamesAreNotRoutedOutsideTheKitsTransport(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithAppleHosts())
	// The same sender on an ordinary client: the request goes wherever the machine's resolver says (nowhere, without
	// a network; Apple, with one), never to the mock.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.push.apple.com/3/device/"+phone,
		strings.NewReader(`{"aps":{"alert":"Hi"}}`))
	req.Header.Set("authorization", "bearer "+mock.Token())
	req.Header.Set("apns-topic", appTopic)
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
	if n := len(mock.Notifications(mockapnstest.Filter{})); n != 0 {
		t.Errorf("the mock recorded %d pushes sent with an ordinary transport; want none", n)
	}
}

func TestTransportWithoutAppleHostsSaysHowToStartTheMock(t *testing.T) {
	fake := &recordingTB{TB: t}
	mock := startThrough(t, fake)
	fake.run(func() { mock.Transport() })
	if got := fake.onlyFatal(t); !strings.Contains(got, "Start(t, mockapnstest.WithAppleHosts())") {
		t.Errorf("message %q should say to start the mock WithAppleHosts", got)
	}
}
