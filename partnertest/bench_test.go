package partnertest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/locsvc/partner-go/partnertest"
)

// BenchmarkGetProject measures one GET of endpoint 5 through the fake
// against a bare net/http server answering the same bytes, over the same
// kind of client: the ratio is the fake's own cost per request.
func BenchmarkGetProject(b *testing.B) {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"})
	token := srv.IssueInstallationToken(g.ID)
	url := srv.URL + "/api/oauth-client/v1/projects/" + p.ID
	body := send(b, srv, "GET", url, token, "", "").body

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer bare.Close()

	run := func(b *testing.B, url string) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := srv.Client().Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
				}
			}
		})
	}
	b.Run("baseline", func(b *testing.B) { run(b, bare.URL) })
	b.Run("partnertest", func(b *testing.B) { run(b, url) })
}
