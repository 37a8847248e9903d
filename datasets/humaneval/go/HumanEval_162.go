package solution

import (
	"crypto/md5"
	"encoding/hex"
)

func StringToMd5(text string) *string {
	if text == "" {
		return nil
	}
	sum := md5.Sum([]byte(text))
	out := hex.EncodeToString(sum[:])
	return &out
}
