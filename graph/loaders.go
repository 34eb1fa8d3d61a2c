package graph

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// The employers of a page are loaded together: each request gets a
// company loader (made on first use). A page of job cards is noted, and the
// first employer asked for on the page loads all its cards' companies in
// one query, whatever the order and timing of the resolvers; other ids are
// gathered for a millisecond and fetched together.

type loadersKey struct{}

type loaders struct {
	// fetch reads companies by id (the store's CompaniesByID).
	fetch func(ctx context.Context, ids []int64) (map[int64]*domain.Company, error)

	loaderOnce sync.Once
	companies  *dataloadgen.Loader[int64, *domain.Company]

	mu    sync.Mutex
	pages []*pageCompanies
}

// companyLoader returns the request's company loader, made on first use:
// most requests ask for no employer.
func (l *loaders) companyLoader() *dataloadgen.Loader[int64, *domain.Company] {
	l.loaderOnce.Do(func() {
		l.companies = dataloadgen.NewMappedLoader(l.fetch, dataloadgen.WithWait(time.Millisecond))
	})
	return l.companies
}

// pageCompanies are the cards of one page, whose companies are loaded at
// most once.
type pageCompanies struct {
	cards []domain.JobCard
	once  sync.Once
}

// has reports whether a card of the page is of company id.
func (p *pageCompanies) has(id int64) bool {
	for i := range p.cards {
		if p.cards[i].CompanyID == id {
			return true
		}
	}
	return false
}

// companyIDs are the page's company ids, each once, in card order.
func (p *pageCompanies) companyIDs() []int64 {
	ids := make([]int64, 0, len(p.cards))
	for i := range p.cards {
		if !slices.Contains(ids, p.cards[i].CompanyID) {
			ids = append(ids, p.cards[i].CompanyID)
		}
	}
	return ids
}

// notePage records a page of cards, so that their employers load in one
// query. The company ids are gathered only when an employer is asked for.
func notePage(ctx context.Context, cards []domain.JobCard) {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok || len(cards) == 0 {
		return
	}
	l.mu.Lock()
	l.pages = append(l.pages, &pageCompanies{cards: cards})
	l.mu.Unlock()
}

// preload loads, once, the companies of the page id belongs to.
func (l *loaders) preload(ctx context.Context, id int64) {
	l.mu.Lock()
	var page *pageCompanies
	for _, p := range l.pages {
		if p.has(id) {
			page = p
			break
		}
	}
	l.mu.Unlock()
	if page != nil {
		page.once.Do(func() { _, _ = l.companyLoader().LoadAll(ctx, page.companyIDs()) })
	}
}

// withLoaders gives each request its own loaders, so that nothing is
// cached across requests.
// The request's store calls run at most dbPerRequest at once
// (search.WithCallLimit).
func (r *Resolver) withLoaders(next http.Handler, dbPerRequest int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		l := &loaders{fetch: r.svc.CompaniesByID}
		ctx := search.WithCallLimit(context.WithValue(req.Context(), loadersKey{}, l), dbPerRequest)
		next.ServeHTTP(w, req.WithContext(ctx))
	})
}

// employer loads the company of a job through the request's loader.
func (r *Resolver) employer(ctx context.Context, companyID int64) (*domain.Company, error) {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok {
		// Outside an HTTP request (tests, REST): one query, unbatched.
		m, err := r.svc.CompaniesByID(ctx, []int64{companyID})
		if err != nil {
			return nil, err
		}
		return found(m[companyID], companyID)
	}
	l.preload(ctx, companyID)
	c, err := l.companyLoader().Load(ctx, companyID)
	if err != nil {
		return nil, err
	}
	return found(c, companyID)
}

func found(c *domain.Company, id int64) (*domain.Company, error) {
	if c == nil {
		return nil, fmt.Errorf("company %d of a job is missing", id)
	}
	return c, nil
}
