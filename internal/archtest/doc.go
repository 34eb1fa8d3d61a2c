// Package archtest holds the test that keeps docs/architecture.md true:
// its table of packages says which way imports go, its table of libraries
// which packages may import each, and the test reads both and checks every
// import of the module's code against them. It has no code of its own.
package archtest
