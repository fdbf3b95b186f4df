//go:build !linux

package sysmem

// rlimitBounds finds no resource limits outside Linux, where VmSize, the
// usage they would be compared with, is not known.
func rlimitBounds() []Headroom { return nil }
