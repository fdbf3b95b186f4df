// Package hopplot draws the distribution of shortest-path lengths of a
// graph, the "hop plot", with gonum's plot package: as bars of the number
// of ordered pairs at each distance, or (Cumulative) as the classic hop
// plot of Faloutsos et al. and Palmer et al., the fraction of reachable
// pairs within distance h, either on a linear or a log y axis. The format
// follows the output file's extension: SVG, PDF or PNG.
//
// The apsp command line (apsp hist -o FILE) parses flags and calls Draw;
// the drawing is here so that it is tested apart from the command.
package hopplot
