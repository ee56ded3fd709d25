package watch

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the size of the key that seals webhooks and secrets in the
// store (Options.Key): AES-256.
const KeySize = 32

// newSealer returns the AES-GCM of key, or of a random key when key is
// nil.
func newSealer(key []byte) (cipher.AEAD, error) {
	if key == nil {
		key = make([]byte, KeySize)
		rand.Read(key)
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("watch: a key of %d bytes: the key that seals webhooks has %d", len(key), KeySize)
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	return cipher.NewGCM(b)
}

// ParseKey reads a key written as 64 hexadecimal digits, or as 32 bytes
// in base64 (standard or URL alphabet, padded or not).
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == KeySize {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == KeySize {
			return b, nil
		}
	}
	return nil, fmt.Errorf("watch: a key is %d bytes, written as %d hexadecimal digits or in base64", KeySize, 2*KeySize)
}

// KeyFromFile reads the key of file, written by ParseKey's rules; when
// the file does not exist, it makes one with a random key, readable by
// its owner alone (0600), in a directory it makes 0700. A key file that
// others may read is refused.
func KeyFromFile(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		key := make([]byte, KeySize)
		rand.Read(key)
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			return nil, fmt.Errorf("watch: the key file: %w", err)
		}
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return KeyFromFile(file) // made by another process meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("watch: the key file: %w", err)
		}
		_, err = f.WriteString(hex.EncodeToString(key) + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(file)
			return nil, fmt.Errorf("watch: the key file: %w", err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("watch: the key file: %w", err)
	}
	if fi, err := os.Stat(file); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("watch: the key file %s may be read by others (mode %v): make it 0600", file, fi.Mode().Perm())
	}
	key, err := ParseKey(string(b))
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, file)
	}
	return key, nil
}

// sealed is what the store keeps of a watch's webhook and secret, sealed.
type sealed struct {
	Webhook string `json:"webhook,omitempty"`
	Secret  string `json:"secret,omitempty"`
}

// seal returns the sealed form of w's webhook and secret, bound to its
// id: base64 of the nonce and the ciphertext.
func (e *Engine) seal(w *Watch) string {
	if w.Webhook == "" && w.Secret == "" {
		return ""
	}
	plain, _ := json.Marshal(&sealed{Webhook: w.Webhook, Secret: w.Secret})
	nonce := make([]byte, e.aead.NonceSize(), e.aead.NonceSize()+len(plain)+e.aead.Overhead())
	rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(e.aead.Seal(nonce, nonce, plain, []byte("watch "+w.ID)))
}

// unseal sets w's webhook and secret from w.Sealed.
func (e *Engine) unseal(w *Watch) error {
	b, err := base64.RawStdEncoding.DecodeString(w.Sealed)
	n := e.aead.NonceSize()
	if err != nil || len(b) < n {
		return errors.New("the sealed webhook is damaged")
	}
	plain, err := e.aead.Open(nil, b[:n], b[n:], []byte("watch "+w.ID))
	if err != nil {
		return errors.New("the webhook and secret were sealed with another key than this server's: make the watch again, or give the server its key")
	}
	var s sealed
	if err := json.Unmarshal(plain, &s); err != nil {
		return errors.New("the sealed webhook is damaged")
	}
	w.Webhook, w.Secret = s.Webhook, s.Secret
	return nil
}

// putWatch writes w to the store with its webhook and secret sealed,
// never in clear.
func (e *Engine) putWatch(ctx context.Context, w *Watch) error {
	c := *w
	c.Sealed = e.seal(w)
	c.Webhook, c.Secret = "", ""
	return e.putJSON(ctx, watchPrefix+w.ID, &c)
}

// ownerHash is what the store keeps of an owner secret: its SHA-256. The
// secret is 32 random bytes, so a hash is as good as a slow derivation.
func ownerHash(secret string) string {
	h := sha256.Sum256([]byte("robotstxt-watch-owner\x00" + secret))
	return hex.EncodeToString(h[:])
}

// newOwnerSecret returns a new owner secret: "wo_" and 32 random bytes in
// base64 (URL alphabet).
func newOwnerSecret() string {
	var b [32]byte
	rand.Read(b[:])
	return ownerSecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

const ownerSecretPrefix = "wo_"

// ValidOwnerSecret reports whether s has the form of an owner secret, as
// Create returns them.
func ValidOwnerSecret(s string) bool {
	rest, ok := strings.CutPrefix(s, ownerSecretPrefix)
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	return err == nil && len(b) == 32
}

// OwnedBy reports whether secret is w's owner secret. A watch made before
// watches had owners, or from serve --watch, has none: only an admin
// reads and deletes it.
func (w *Watch) OwnedBy(secret string) bool {
	if w.OwnerHash == "" || secret == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(ownerHash(secret)), []byte(w.OwnerHash)) == 1
}
