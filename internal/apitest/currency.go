package apitest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
)

// CurrencyJobs are postings paid in several currencies, newest first:
// USD 100,000; GBP 80,000 (USD 125,000 at TestRates); JPY 6,000,000 a
// year (USD 46,875: the salary that passed a dollar minimum); CHF
// 120,000 (no rate at TestRates); and no salary.
const CurrencyJobs = `{"id":"cur-1","title":"Backend Engineer","company":"Dollar Co","posted_at":"2026-10-30T10:00:00Z","salary":{"min":100000,"max":100000,"currency":"USD","period":"yearly"}}
{"id":"cur-2","title":"Backend Engineer","company":"Pound Ltd","posted_at":"2026-10-29T10:00:00Z","salary":{"min":6666.67,"max":6666.67,"currency":"gbp","period":"monthly"}}
{"id":"cur-3","title":"Backend Engineer","company":"Yen KK","posted_at":"2026-10-28T10:00:00Z","salary":{"min":6000000,"max":6000000,"currency":"JPY","period":"yearly"}}
{"id":"cur-4","title":"Backend Engineer","company":"Franc AG","posted_at":"2026-10-27T10:00:00Z","salary":{"min":120000,"max":120000,"currency":"CHF","period":"yearly"}}
{"id":"cur-5","title":"Backend Engineer","company":"Nobody Inc","posted_at":"2026-10-26T10:00:00Z"}`

// TestRatesDate is TestRates' day.
const TestRatesDate = "2026-04-13"

// TestRates are made-up rates in the ECB's daily layout: 1 EUR = 1.25
// USD = 160 JPY = 0.8 GBP; no CHF.
func TestRates(t testing.TB) *currency.Source {
	t.Helper()
	r, err := currency.Parse(strings.NewReader("Date, USD, JPY, GBP, \n13 April 2026, 1.25, 160, 0.8, \n"))
	require.NoError(t, err)
	return currency.Static(r)
}
