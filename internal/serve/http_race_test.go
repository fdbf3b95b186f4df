package serve

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestHTTPGraphBodyNoRace: a graph file body that fails on its first line,
// larger than --max-body, sent many times at once, is answered without
// the parse's read-ahead racing the answer (go test -race).
func TestHTTPGraphBodyNoRace(t *testing.T) {
	_, ts := newTestHTTP(t, HTTPOptions{MaxBody: 300 << 10})
	body := "x y\n" + strings.Repeat("0 1\n", 1<<18)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", ts.URL+"/v1/stats", strings.NewReader(body))
			req.Header.Set("Content-Type", "text/plain")
			req.ContentLength = -1
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return // the server may close an oversized upload early
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge && resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("status %d", resp.StatusCode)
			}
		})
	}
	wg.Wait()
}
