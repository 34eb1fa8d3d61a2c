package graph

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/jobsd-dev/jobsd/graph/model"
)

// The employers of a page are loaded together: each request gets a
// company loader that gathers the ids its resolvers ask for during a
// millisecond and fetches them in one query.

type loadersKey struct{}

type loaders struct {
	companies *dataloadgen.Loader[int64, *model.Company]
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
