package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"time"

	"github.com/jlaffaye/ftp"
	"github.com/seed53c283f5/robotstxt"
)

// ctxConn is a connection whose deadline is its context's: it is closed when
// the context is done, so that an FTP exchange never outlives the fetch.
type ctxConn struct {
	net.Conn
	stop func() bool
}

func (c *ctxConn) Close() error {
	c.stop()
	return c.Conn.Close()
}

// MaxFTPReply bounds one reply on the FTP control connection, as HTTP's
// header is bounded: a server sending an endless line, or endless
// continuation lines ("220-..."), gets an error matching ErrFTPReplyTooLong
// once this much of one reply is read.
const MaxFTPReply = 64 << 10

// maxFTPControl bounds all that is read on one control connection: a login
// and a RETR take a few replies.
const maxFTPControl = 1 << 20

// ErrFTPReplyTooLong is wrapped by the error of an FTP fetch whose server
// sent a reply longer than MaxFTPReply on the control connection, or more
// than 1 MiB of replies in all.
var ErrFTPReplyTooLong = errors.New("FTP reply too long")

// replyLimit is the FTP control connection, read no further than
// MaxFTPReply bytes into one reply. It follows the replies' framing: a
// reply ends with a line "NNN text" (after "NNN-" continuation lines, with
// the same NNN).
type replyLimit struct {
	net.Conn
	reply, total int     // bytes read of the current reply, of all
	head         [4]byte // the first bytes of the current line
	n            int     // how many of them
	multi        [3]byte // the code of the multi-line reply under way
	inMulti      bool
}

func (c *replyLimit) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	for _, b := range p[:n] {
		c.reply++
		c.total++
		if c.reply > MaxFTPReply {
			return 0, fmt.Errorf("%w: the server sent over %d KiB in one reply on the control connection", ErrFTPReplyTooLong, MaxFTPReply>>10)
		}
		if c.total > maxFTPControl {
			return 0, fmt.Errorf("%w: the server sent over %d KiB of replies on the control connection", ErrFTPReplyTooLong, maxFTPControl>>10)
		}
		if b != '\n' {
			if c.n < len(c.head) {
				c.head[c.n] = b
				c.n++
			}
			continue
		}
		h := c.head
		coded := c.n >= 3 && isDigit(h[0]) && isDigit(h[1]) && isDigit(h[2])
		sep := byte(' ')
		if c.n == 4 {
			sep = h[3]
		}
		c.n = 0
		switch {
		case !coded:
		case !c.inMulti && sep == '-':
			c.inMulti, c.multi = true, [3]byte{h[0], h[1], h[2]}
		case sep != '-' && (!c.inMulti || c.multi == [3]byte{h[0], h[1], h[2]}):
			c.inMulti, c.reply = false, 0 // the reply is complete
		}
	}
	return n, err
}

func (f *Fetcher) ftpDial(ctx context.Context) func(network, addr string) (net.Conn, error) {
	control := true // the first connection; the others carry data
	return func(network, addr string) (net.Conn, error) {
		var (
			conn net.Conn
			err  error
		)
		if f.DialContext != nil {
			conn, err = f.DialContext(ctx, network, addr)
		} else {
			var d net.Dialer
			conn, err = d.DialContext(ctx, network, addr)
		}
		if err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			conn.SetDeadline(dl)
		}
		stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
		if control {
			control = false
			conn = &replyLimit{Conn: conn}
		}
		return &ctxConn{Conn: conn, stop: stop}, nil
	}
}

// ftpCode returns the reply code of an FTP protocol error, 0 for others.
func ftpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// fetchFTP logs in anonymously and retrieves /robots.txt. Reply codes map
// onto HTTP's: 550 (no such file) is a 404, 530 (login refused) is a 401,
// other permanent (5xx) replies are "no valid robots.txt", and transient
// (4xx) replies and network errors are "unreachable".
func (f *Fetcher) fetchFTP(ctx context.Context, res *Result, o Origin) *Error {
	u := o.RobotsURL()
	tr := Request{URL: u}
	fail := func(step string, err error) *Error {
		tr.Status = ftpCode(err)
		res.Status = tr.Status
		res.Trace = append(res.Trace, tr)
		return &Error{Origin: o, URL: u, Step: step, Err: err}
	}
	var replies replyWatcher
	c, err := ftp.Dial(o.hostPort(true), ftp.DialWithContext(ctx), ftp.DialWithDialFunc(f.ftpDial(ctx)), ftp.DialWithDisabledUTF8(true), ftp.DialWithDebugOutput(&replies))
	if err != nil {
		step := stepOf(err, StepDial)
		if code := ftpCode(err); code != 0 || errors.Is(err, ErrFTPReplyTooLong) {
			step = StepFTPLogin
		}
		return fail(step, err)
	}
	defer c.Quit()
	if err := c.Login("anonymous", "anonymous@"); err != nil {
		code := ftpCode(err)
		var te *textproto.Error
		if !errors.As(err, &te) {
			var ne net.Error
			if errors.Is(err, ErrFTPReplyTooLong) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed) || ctx.Err() != nil {
				return fail(StepFTPLogin, err)
			}
			// The client library gives the text of a refusal of USER,
			// not its code: the control connection's last reply has it.
			code = replies.last
			if code == 0 {
				code = 530
			}
			err = &textproto.Error{Code: code, Msg: err.Error()}
		}
		if code == 530 {
			tr.Status, res.Status = 530, 530
			tr.Err = "login refused: " + err.Error()
			res.Trace = append(res.Trace, tr)
			if refusalDisallows(f.dialect()) {
				res.Policy = DisallowAll
				res.Reason = "FTP 530: anonymous login refused, which the original standard reads as everything disallowed"
			} else {
				res.Policy = AllowAll
				res.Reason = "FTP 530: anonymous login refused (like HTTP 401): no valid robots.txt, everything is allowed"
			}
			return nil
		}
		if code >= 500 {
			return f.ftpPermanent(res, tr, code, err)
		}
		return fail(StepFTPLogin, err)
	}
	r, err := c.Retr("/robots.txt")
	if err != nil {
		if code := ftpCode(err); code >= 500 {
			return f.ftpPermanent(res, tr, code, err)
		}
		return fail(stepOf(err, StepFTPRetr), err)
	}
	limit := f.maxBytes()
	body, truncated, _, err := readBody(r, "", limit)
	if truncated {
		r.Close() // the server may complain that we stopped reading; the body is what we wanted
	} else if err == nil {
		err = r.Close()
	} else {
		r.Close()
	}
	tr.Bytes, tr.Truncated = int64(len(body)), truncated
	if err != nil {
		if code := ftpCode(err); code != 0 && code < 400 {
			err = nil
		} else {
			return fail(StepFTPData, err)
		}
	}
	tr.Status, res.Status = 226, 226
	res.Trace = append(res.Trace, tr)
	res.Truncated = truncated
	if f.dialect() == robotstxt.Yandex && truncated {
		res.Policy = AllowAll
		res.Reason = fmt.Sprintf("FTP: the file is over %d bytes, which Yandex reads as no restrictions: everything is allowed", limit)
		return nil
	}
	res.Policy, res.Body = Rules, body
	res.Reason = "FTP: " + byteCount(len(body)) + " of rules"
	if truncated {
		res.Reason = fmt.Sprintf("FTP: the file is over %d bytes; its first %d are read, the rest ignored and not downloaded", limit, limit)
	}
	return nil
}

// ftpPermanent is the policy of a permanent FTP refusal: 550 (no such file)
// and the other 5xx replies mean there is no valid robots.txt.
func (f *Fetcher) ftpPermanent(res *Result, tr Request, code int, err error) *Error {
	tr.Status, res.Status = code, code
	tr.Err = err.Error()
	res.Trace = append(res.Trace, tr)
	res.Policy = AllowAll
	if code == 550 {
		res.Reason = "FTP 550: no /robots.txt (like HTTP 404): everything is allowed"
	} else {
		res.Reason = fmt.Sprintf("FTP %d: the server refused (%v): no valid robots.txt, everything is allowed", code, err)
	}
	return nil
}

// replyWatcher reads the control connection as the FTP client library
// copies it (commands and replies) and keeps the code of the last reply
// line: the library reports a refusal of USER without its code. (The
// library copies the data connection here too; only the login, which
// comes before any data, reads last.)
type replyWatcher struct {
	last int    // the code of the last final reply line ("NNN text")
	head []byte // the first bytes of the current line
}

func (w *replyWatcher) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			w.head = w.head[:0]
			continue
		}
		if len(w.head) < 4 {
			w.head = append(w.head, b)
			if len(w.head) == 4 && w.head[3] == ' ' && isDigit(w.head[0]) && isDigit(w.head[1]) && isDigit(w.head[2]) {
				w.last = int(w.head[0]-'0')*100 + int(w.head[1]-'0')*10 + int(w.head[2]-'0')
			}
		}
	}
	return len(p), nil
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
