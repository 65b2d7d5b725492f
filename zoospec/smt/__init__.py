"""Z3 terms and the symbolic values built from them (sets, maps, records, choices): what the Z3
back end, the built-ins' encodings, symbolic states and the Yices translation all build on."""
