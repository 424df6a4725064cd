module github.com/mockapns/mockapns/kits/go

go 1.19
