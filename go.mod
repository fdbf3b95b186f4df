module github.com/apsp/apsp

go 1.26
