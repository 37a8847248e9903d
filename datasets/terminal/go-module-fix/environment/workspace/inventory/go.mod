module example.com/inventry

go 1.19
