package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/jobsd-dev/jobsd/normalize"
)

func TestSanitizeHTML(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{"formatting kept", "<h2>Role</h2><p>Build <b>things</b>, <em>well</em>.</p><ul><li>Go</li></ul>",
			"<h2>Role</h2><p>Build <b>things</b>, <em>well</em>.</p><ul><li>Go</li></ul>"},
		{"script dropped with its content", `<p>Hi</p><script>alert(document.cookie)</script>`, "<p>Hi</p>"},
		{"style dropped with its content", `<style>body{display:none}</style><p>Hi</p>`, "<p>Hi</p>"},
		{"event handler dropped", `<img src="https://x.example/a.png" onerror="alert(1)">`, `<img src="https://x.example/a.png">`},
		{"javascript link dropped", `<a href="javascript:alert(1)">apply</a>`, "apply"},
		{"mixed-case javascript link dropped", `<a href="JaVaScRiPt:alert(1)">apply</a>`, "apply"},
		{"https link kept, nofollow", `<a href="https://x.example/apply">apply</a>`, `<a href="https://x.example/apply" rel="nofollow">apply</a>`},
		{"iframe dropped", `<iframe src="https://evil.example"></iframe><p>Hi</p>`, "<p>Hi</p>"},
		{"form and input dropped", `<form action="https://evil.example"><input name="password"></form>ok`, "ok"},
		{"inline style dropped", `<p style="background:url(javascript:alert(1))">Hi</p>`, "<p>Hi</p>"},
		{"svg script dropped", `<svg><script>alert(1)</script></svg>ok`, "ok"},
		{"text escaped", `5 < 6 & 7 > 3`, `5 &lt; 6 &amp; 7 &gt; 3`},
		{"unclosed tag", `<p>Hi<script>alert(1)`, "<p>Hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalize.SanitizeHTML(tt.give)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, normalize.SanitizeHTML(got), "sanitizing twice changes nothing")
		})
	}
}

func TestSafeURL(t *testing.T) {
	tests := []struct {
		give string
		want string // "" when not safe
	}{
		{"https://example.com/jobs/1", "https://example.com/jobs/1"},
		{"http://example.com/logo.png?size=2", "http://example.com/logo.png?size=2"},
		{"  HTTPS://Example.com/x  ", "HTTPS://Example.com/x"},
		{"javascript:alert(1)", ""},
		{"JavaScript://example.com/%0aalert(1)", ""},
		{"data:image/png;base64,iVBORw0KGgo=", ""},
		{"vbscript:msgbox(1)", ""},
		{"file:///etc/passwd", ""},
		{"ftp://example.com/logo.png", ""},
		{"mailto:jobs@example.com", ""},
		{"/logo.png", ""},
		{"//cdn.example.com/logo.png", ""},
		{"https://", ""},
		{"http:example.com", ""},
		{"https://exa mple.com/", ""},
		{"https://example.com/\x00", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := normalize.SafeURL(tt.give)
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestJobIsSafeToRender: Job stores description_raw sanitized, its
// description derived from the sanitized HTML, and drops a url or
// company_logo that is not http(s) to null (given value and all), which
// UnsafeURLs names.
func TestJobIsSafeToRender(t *testing.T) {
	n := newNormalizer(t)
	j := validJob()
	j.DescriptionRaw = ptr(`<p onclick="steal()">Build things.</p><script>alert("x")</script><a href="javascript:alert(1)">Apply</a>`)
	j.URL = ptr("javascript:alert(1)")
	j.CompanyLogo = ptr(" data:image/svg+xml;base64,PHN2Zz48L3N2Zz4= ")
	assert.Equal(t, []string{"company_logo", "url"}, normalize.UnsafeURLs(j))

	rec, err := n.Job(j)
	require.NoError(t, err)
	assert.Equal(t, "<p>Build things.</p>Apply", *rec.DescriptionRaw)
	assert.Equal(t, "Build things.\nApply", *rec.Description)
	assert.Nil(t, rec.URL)
	assert.Nil(t, rec.CompanyLogo)
	assert.NotContains(t, string(rec.Given), "javascript", "an unsafe URL is not kept as a given value")
	assert.NotContains(t, string(rec.Given), "data:")

	j.URL, j.CompanyLogo = ptr(" https://example.com/jobs/1 "), ptr("http://example.com/logo.png")
	assert.Empty(t, normalize.UnsafeURLs(j))
	rec, err = n.Job(j)
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/jobs/1", *rec.URL)
	assert.Equal(t, "http://example.com/logo.png", *rec.CompanyLogo)
}

// TestRenormalizeCleansStoredJobs: a job stored before sanitization
// (jobsd renormalize reads it with its given values, normalize.Given, and
// normalizes it again) comes out safe, and a safe job comes out as it was
// stored, so that renormalize rewrites only the unsafe ones.
func TestRenormalizeCleansStoredJobs(t *testing.T) {
	n := newNormalizer(t)
	stored := validJob()
	stored.DescriptionRaw = ptr(`<p>Hi</p><img src=x onerror="alert(1)">`)
	stored.Description = ptr("Hi")
	stored.URL = ptr("javascript:alert(1)")
	stored.CompanyLogo = ptr("vbscript:x")
	job, err := normalize.Given(stored, []byte(`{"company_logo":"javascript:alert(2)"}`))
	require.NoError(t, err)
	rec, err := n.Job(job)
	require.NoError(t, err)
	assert.Equal(t, `<p>Hi</p><img src="x">`, *rec.DescriptionRaw)
	assert.Nil(t, rec.URL)
	assert.Nil(t, rec.CompanyLogo)

	again, err := normalize.Given(rec.Job, rec.Given)
	require.NoError(t, err)
	rec2, err := n.Job(again)
	require.NoError(t, err)
	assert.Equal(t, rec.Job, rec2.Job, "normalizing a stored safe job again changes nothing")
}

// FuzzSanitizeHTML: any input gives HTML a browser runs nothing of
// (unsafeHTML), which sanitizing again leaves as it is.
func FuzzSanitizeHTML(f *testing.F) {
	for _, seed := range []string{
		"<p>Hi</p>", `<a href="javascript:alert(1)">x</a>`, `<img src=x onerror=alert(1)>`, "<script>alert(1)</script>",
		`<scr<script>ipt>alert(1)</script>`, `<svg onload=alert(1)>`, "<p>5 &lt; 6</p>", `<a href="jav&#x09;ascript:alert(1)">x</a>`,
		"<table><tr><td>a</td></tr></table>", "<!-- <script> -->", "<![CDATA[<script>]]>", "\xff<b>\x00</b>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := normalize.SanitizeHTML(s)
		if bad := unsafeHTML(got); bad != "" {
			t.Fatalf("SanitizeHTML(%q) = %q holds %s", s, got, bad)
		}
		if again := normalize.SanitizeHTML(got); again != got {
			t.Fatalf("SanitizeHTML(%q) = %q, but sanitized again %q", s, got, again)
		}
	})
}

// unsafeHTML returns what of s a browser could run (a script, style or
// frame element, an event handler, a javascript:, vbscript: or data: URL
// in an attribute), or "".
func unsafeHTML(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			switch string(name) {
			case "script", "style", "iframe", "object", "embed", "svg", "math", "form":
				return "a <" + string(name) + "> element"
			}
			for more {
				var key, val []byte
				key, val, more = z.TagAttr()
				if strings.HasPrefix(string(key), "on") {
					return "an event handler " + string(key)
				}
				v := strings.ToLower(strings.Map(func(r rune) rune {
					if r <= ' ' {
						return -1
					}
					return r
				}, string(val)))
				for _, scheme := range []string{"javascript:", "vbscript:", "data:"} {
					if strings.HasPrefix(v, scheme) {
						return "a " + scheme + " URL"
					}
				}
			}
		}
	}
}

// An over-long unsafe logo is dropped, not an invalid record: URL bounds
// apply to the URLs that are kept.
func TestUnsafeURLDroppedBeforeBounds(t *testing.T) {
	n := newNormalizer(t)
	j := validJob()
	j.CompanyLogo = ptr("data:image/png;base64," + strings.Repeat("A", 100_000))
	rec, err := n.Job(j)
	require.NoError(t, err)
	assert.Nil(t, rec.CompanyLogo)
}
