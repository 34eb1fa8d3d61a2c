package store

// ScanBinary exposes scanBinary to the store_test package.
var ScanBinary = scanBinary

// BinaryResults exposes binaryResults to the store_test package.
var BinaryResults = binaryResults
