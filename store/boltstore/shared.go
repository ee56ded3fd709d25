package boltstore

// Shared reports false: one process at a time holds a bbolt file, so its
// leases never order more than that process's goroutines, which the cache
// already does itself. The cache takes no lease on a store that says so.
func (s *Store) Shared() bool { return false }
