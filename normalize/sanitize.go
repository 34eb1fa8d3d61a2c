// Sanitizing: third-party HTML made safe to render and URLs kept only with safe schemes.

package normalize

import (
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"

	"github.com/jobsd-dev/jobsd/domain"
)

// htmlPolicy is bluemonday's policy for user-generated content: an
// allow-list of formatting, list, table and link elements and their safe
// attributes; scripts, styles, event handlers, iframes, forms and
// javascript: links are removed. A policy is safe for concurrent use once
// built.
var htmlPolicy = bluemonday.UGCPolicy()

// SanitizeHTML returns the HTML of a posting (description_raw) safe to
// render in a page: what htmlPolicy allows kept, the rest removed (the
// text of an unknown element kept, the content of a script or style
// dropped). Sanitizing its result again gives it back.
func SanitizeHTML(s string) string {
	return strings.TrimSpace(htmlPolicy.Sanitize(s))
}

// SafeURL returns s trimmed when it is an absolute http or https URL with
// a host, and false otherwise (a javascript:, data: or relative URL, or
// no URL at all). Job drops a url or company_logo that is not safe to
// null: the rest of the record is still good, and crawled data often has
// such links.
func SafeURL(s string) (string, bool) {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return s, true
	}
	return "", false
}

// urlFields are the URL fields of a job: a company's logo_url is the
// company_logo of its jobs.
func urlFields(j *domain.Job) map[string]**string {
	return map[string]**string{"url": &j.URL, "company_logo": &j.CompanyLogo}
}

// UnsafeURLs returns the JSON names of the URL fields of j (url,
// company_logo) that Job drops to null because they are not SafeURL, in
// a stable order; none when every given URL is safe.
func UnsafeURLs(j domain.Job) []string {
	var out []string
	for _, name := range []string{"company_logo", "url"} {
		p := *urlFields(&j)[name]
		if p == nil || strings.TrimSpace(*p) == "" {
			continue
		}
		if _, ok := SafeURL(*p); !ok {
			out = append(out, name)
		}
	}
	return out
}

// dropUnsafeURLs sets the URL fields of j that are not SafeURL to nil,
// and trims the others.
func dropUnsafeURLs(j *domain.Job) {
	for _, p := range urlFields(j) {
		if *p == nil {
			continue
		}
		if s, ok := SafeURL(**p); ok {
			*p = &s
		} else {
			*p = nil
		}
	}
}
