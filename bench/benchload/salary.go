package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jobsd-dev/jobsd/currency"
)

// salaryUnit is how the checks' SQL compares a salary bound in US dollars
// (the requests name no salary_currency) as the service does: every job's
// annual amount converted at the currency rates serve loads from
// $JOBSD_REFDATA (in euros, the bound divided by the dollar's rate), or,
// without the rates file, among the dollar salaries only.
type salaryUnit struct {
	rate string  // SQL of the job's currency's rate ("1" without rates)
	usd  float64 // the dollar's rate (1 without rates)
	cond string  // SQL every salary match also meets
}

// loadSalaryUnit reads the rates as serve does.
func loadSalaryUnit() (salaryUnit, error) {
	src, err := currency.Open(currency.FileIn(os.Getenv("JOBSD_REFDATA")))
	if err != nil {
		return salaryUnit{}, err
	}
	r := src.Rates()
	if r == nil {
		return salaryUnit{rate: "1", usd: 1, cond: "j.salary_currency = 'USD'"}, nil
	}
	usd, ok := r.Rate("USD")
	if !ok {
		return salaryUnit{}, fmt.Errorf("the rates of %s have no USD", src.Path())
	}
	var b strings.Builder
	b.WriteString("(CASE j.salary_currency")
	for _, code := range r.Codes() {
		v, _ := r.Rate(code)
		b.WriteString(" WHEN '" + code + "' THEN " + strconv.FormatFloat(v, 'g', -1, 64) + "::float8")
	}
	b.WriteString(" END)")
	return salaryUnit{rate: b.String(), usd: usd, cond: "true"}, nil
}

// amount is the SQL of an annual amount expression in the unit.
func (u salaryUnit) amount(expr string) string { return "(" + expr + " / " + u.rate + ")" }

// bound is a dollar bound in the unit.
func (u salaryUnit) bound(dollars int) float64 { return float64(dollars) / u.usd }
