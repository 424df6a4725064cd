module mockapnstest

go 1.19
