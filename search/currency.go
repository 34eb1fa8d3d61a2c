// Currency: the rates a query's salary amounts are converted with, and how
// meta.normalized names them.

package search

import (
	"strings"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
)

// Option configures New.
type Option func(*Service)

// WithRates makes the service compare salaries at the rates of src (its
// current ones at each request). Without it, or while src has no rates,
// salary filters compare postings of the requested currency only.
func WithRates(src *currency.Source) Option {
	return func(s *Service) { s.rates = src }
}

// withRates gives q the current rates and checks that they know its
// currency; q's echo names them when q filters or sorts by salary or names
// a currency.
func (s *Service) withRates(q *domain.JobQuery) error {
	rates := s.rates.Rates()
	if _, ok := rates.Rate(q.Currency.Code); rates != nil && !ok {
		return domain.InvalidParam("salary_currency", "salary_currency must be a currency of the reference rates of %s: %s; got %q",
			rates.Date(), strings.Join(rates.Codes(), ", "), domain.Clip(q.Currency.Code))
	}
	q.Currency.Rates = rates
	if q.UsesSalary() || q.Currency.Named {
		echoCurrency(&q.Normalized, q.Currency)
	}
	return nil
}

// echoCurrency sets meta.normalized's salary_currency: the currency and the
// rates' date (null without rates).
func echoCurrency(normalized *domain.NormalizedFilter, c domain.SalaryCurrency) {
	echo := &domain.NormalizedCurrency{Currency: c.Code}
	if c.Rates != nil {
		date := c.Rates.Date()
		echo.RatesDate = &date
	}
	normalized.SalaryCurrency = echo
}
