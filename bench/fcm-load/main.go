// fcm-load sends FCM HTTP v1 messages:send requests to a mock, each message to the next registration token of a
// file in turn, over TLS with HTTP/2: -c connections, -m requests in flight on each (h2load's -c and -m). Every
// message has its own body (its number in the title, the body and the data), made before the clock starts. It fails
// (exit 1) if any answer is not the expected status, and prints what it sent and how long it took.
//
//	fcm-load -url https://127.0.0.1:PORT -ca ca.pem -bearer-file bearer -tokens tokens -n 20000 -c 4 -m 100 [-platform ios]
//
// The token file has one registration a line, "PLATFORM TOKEN" (ios, android or web, then the token); -platform
// keeps only the lines of one platform. Standard library only: Go's HTTP/2 client comes with net/http.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type registration struct{ platform, token string }

func main() {
	url := flag.String("url", "", "the mock's FCM URL, https://HOST:PORT")
	path := flag.String("path", "/v1/projects/mockapns-test/messages:send", "the request path")
	caFile := flag.String("ca", "", "the CA (PEM) the FCM port's certificate chains to")
	bearerFile := flag.String("bearer-file", "", "a file holding the OAuth access token (sent as `authorization: Bearer …`)")
	tokensFile := flag.String("tokens", "", `registrations, one a line: "PLATFORM TOKEN"`)
	platform := flag.String("platform", "", "only the registrations of this platform (ios, android, web); all when empty")
	requests := flag.Int("n", 20000, "messages to send")
	connections := flag.Int("c", 4, "connections")
	streams := flag.Int("m", 100, "requests in flight on each connection")
	status := flag.Int("status", 200, "the status every answer must have")
	flag.Parse()
	if *url == "" || *caFile == "" || *tokensFile == "" || *requests < 1 || *connections < 1 || *streams < 1 {
		fail("-url, -ca and -tokens are required; -n, -c and -m at least 1 (see -h)")
	}

	pem, err := os.ReadFile(*caFile)
	if err != nil {
		fail("the CA: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		fail("%s holds no PEM certificate", *caFile)
	}
	bearer := ""
	if *bearerFile != "" {
		data, err := os.ReadFile(*bearerFile)
		if err != nil {
			fail("the bearer token: %v", err)
		}
		bearer = strings.TrimSpace(string(data))
	}
	registrations, err := readRegistrations(*tokensFile, *platform)
	if err != nil {
		fail("%v", err)
	}
	if len(registrations) == 0 {
		fail("%s has no registration%s", *tokensFile, map[bool]string{true: "", false: " of platform " + *platform}[*platform == ""])
	}

	// The bodies, before the clock: message i goes to registration i mod len.
	bodies := make([][]byte, *requests)
	perPlatform := map[string]int{}
	for i := range bodies {
		r := registrations[i%len(registrations)]
		perPlatform[r.platform]++
		bodies[i] = []byte(fmt.Sprintf(`{"message":{"token":"%s","notification":{"title":"Order %d","body":"Your order %d has shipped"},"data":{"order":"%d"}}}`,
			r.token, i+1, i+1, i+1))
	}

	// One Transport per connection, so there are -c of them; each dial is counted, to show that Go's HTTP/2 client
	// kept to one connection per Transport.
	var dials int64
	target := *url + *path
	clients := make([]*http.Client, *connections)
	for c := range clients {
		dialer := &net.Dialer{Timeout: 10 * time.Second}
		transport := &http.Transport{
			ForceAttemptHTTP2: true,
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
				atomic.AddInt64(&dials, 1)
				return dialer.DialContext(ctx, network, address)
			},
			MaxIdleConnsPerHost: 1,
		}
		clients[c] = &http.Client{Transport: transport, Timeout: 60 * time.Second}
	}

	var next, done, wrong int64
	var firstWrong sync.Once
	var wrongText string
	send := func(client *http.Client, i int) {
		request, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(bodies[i]))
		if err != nil {
			fail("%v", err)
		}
		request.Header.Set("content-type", "application/json")
		if bearer != "" {
			request.Header.Set("authorization", "Bearer "+bearer)
		}
		response, err := client.Do(request)
		if err != nil {
			atomic.AddInt64(&wrong, 1)
			firstWrong.Do(func() { wrongText = fmt.Sprintf("message %d: %v", i+1, err) })
			return
		}
		answer, err := io.ReadAll(response.Body)
		response.Body.Close()
		if err != nil || response.StatusCode != *status || response.ProtoMajor != 2 {
			atomic.AddInt64(&wrong, 1)
			firstWrong.Do(func() {
				wrongText = fmt.Sprintf("message %d (to %s): %s %s, %s", i+1, registrations[i%len(registrations)].token,
					response.Proto, response.Status, bytes.TrimSpace(answer))
				if err != nil {
					wrongText += fmt.Sprintf(" (reading the answer: %v)", err)
				}
			})
			return
		}
		atomic.AddInt64(&done, 1)
	}

	start := time.Now()
	// Each connection is opened by one request before the others start, so its Transport dials it once.
	var opened sync.WaitGroup
	for c := range clients {
		i := int(atomic.AddInt64(&next, 1) - 1)
		if i >= *requests {
			break
		}
		opened.Add(1)
		go func(client *http.Client, i int) { defer opened.Done(); send(client, i) }(clients[c], i)
	}
	opened.Wait()
	var running sync.WaitGroup
	for c := range clients {
		for s := 0; s < *streams; s++ {
			running.Add(1)
			go func(client *http.Client) {
				defer running.Done()
				for {
					i := int(atomic.AddInt64(&next, 1) - 1)
					if i >= *requests {
						return
					}
					send(client, i)
				}
			}(clients[c])
		}
	}
	running.Wait()
	elapsed := time.Since(start)

	platforms := []string{}
	for _, name := range []string{"ios", "android", "web"} {
		if perPlatform[name] > 0 {
			platforms = append(platforms, fmt.Sprintf("%d %s", perPlatform[name], name))
		}
	}
	fmt.Printf("fcm-load: %d messages (%s) to %d registrations, %d answered %d, %d not; %d connections (%d dialled), %d streams each; %.3f s, %.0f messages/s\n",
		*requests, strings.Join(platforms, ", "), min(len(registrations), *requests), done, *status, wrong, *connections, dials, *streams,
		elapsed.Seconds(), float64(*requests)/elapsed.Seconds())
	if wrong > 0 {
		fail("%d of %d answers were not %d; the first: %s", wrong, *requests, *status, wrongText)
	}
}

func readRegistrations(path, platform string) ([]registration, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the token file: %v", err)
	}
	defer file.Close()
	var registrations []registration
	scanner := bufio.NewScanner(file)
	for line := 1; scanner.Scan(); line++ {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf(`%s:%d: want "PLATFORM TOKEN", got %q`, path, line, scanner.Text())
		}
		if platform == "" || fields[0] == platform {
			registrations = append(registrations, registration{fields[0], fields[1]})
		}
	}
	return registrations, scanner.Err()
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func fail(format string, arguments ...interface{}) {
	fmt.Fprintf(os.Stderr, "fcm-load: "+format+"\n", arguments...)
	os.Exit(1)
}
