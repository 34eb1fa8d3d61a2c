package graph

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/jobsd-dev/jobsd/graph/model"
)

// The employers of a page are loaded together: each request gets a
// company loader. A page of job cards notes its company ids, and the first
// employer asked for on the page loads them all in one query, whatever the
// order and timing of the resolvers; other ids are gathered for a
// millisecond and fetched together.

type loadersKey struct{}

type loaders struct {
	companies *dataloadgen.Loader[int64, *model.Company]

	mu    sync.Mutex
	pages []*pageCompanies
}

// pageCompanies are the company ids of one page, loaded at most once.
type pageCompanies struct {
	ids  map[int64]bool
	list []int64
	once sync.Once
}

// notePage records the company ids of a page of cards, so that their
// employers load in one query.
func notePage(ctx context.Context, cards []model.JobCard) {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok || len(cards) == 0 {
		return
	}
	p := &pageCompanies{ids: map[int64]bool{}}
	for _, c := range cards {
		if !p.ids[c.CompanyID] {
			p.ids[c.CompanyID] = true
			p.list = append(p.list, c.CompanyID)
		}
	}
	l.mu.Lock()
	l.pages = append(l.pages, p)
	l.mu.Unlock()
}

// preload loads, once, the companies of the page id belongs to.
func (l *loaders) preload(ctx context.Context, id int64) {
	l.mu.Lock()
	var page *pageCompanies
	for _, p := range l.pages {
		if p.ids[id] {
			page = p
			break
		}
	}
	l.mu.Unlock()
	if page != nil {
		page.once.Do(func() { _, _ = l.companies.LoadAll(ctx, page.list) })
	}
}

// withLoaders gives each request its own loaders, so that nothing is
// cached across requests.
func (r *Resolver) withLoaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		l := &loaders{companies: dataloadgen.NewMappedLoader(r.store.CompaniesByID, dataloadgen.WithWait(time.Millisecond))}
		next.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), loadersKey{}, l)))
	})
}

// employer loads the company of a job through the request's loader.
func (r *Resolver) employer(ctx context.Context, companyID int64) (*model.Company, error) {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok {
		// Outside an HTTP request (tests, REST): one query, unbatched.
		m, err := r.store.CompaniesByID(ctx, []int64{companyID})
		if err != nil {
			return nil, err
		}
		return found(m[companyID], companyID)
	}
	l.preload(ctx, companyID)
	c, err := l.companies.Load(ctx, companyID)
	if err != nil {
		return nil, err
	}
	return found(c, companyID)
}

func found(c *model.Company, id int64) (*model.Company, error) {
	if c == nil {
		return nil, fmt.Errorf("company %d of a job is missing", id)
	}
	return c, nil
}
