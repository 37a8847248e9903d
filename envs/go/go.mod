module solution

go 1.19
