package fetch

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
)

// ftpServer is a minimal FTP server for the tests: anonymous login,
// EPSV/PASV and RETR of one file, with replies that can be made to fail.
type ftpServer struct {
	ln        net.Listener
	body      []byte
	userReply string // reply to USER; "" means "331 Anonymous login ok, send your e-mail as password"
	passReply string // reply to PASS; "" means "230 Logged in"
	retrReply string // reply to RETR instead of sending the file, e.g. "550 No such file"

	mu   sync.Mutex
	cmds []string
}

func startFTP(t *testing.T, s *ftpServer) *ftpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.ln = ln
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *ftpServer) addr() string { return s.ln.Addr().String() }

func (s *ftpServer) commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cmds...)
}

func (s *ftpServer) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(line string) { fmt.Fprintf(c, "%s\r\n", line) }
	reply("220 test server ready")
	var data net.Listener
	defer func() {
		if data != nil {
			data.Close()
		}
	}()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd, arg, _ := strings.Cut(line, " ")
		cmd = strings.ToUpper(cmd)
		s.mu.Lock()
		s.cmds = append(s.cmds, line)
		s.mu.Unlock()
		switch cmd {
		case "USER":
			reply(or(s.userReply, "331 Anonymous login ok, send your e-mail as password"))
		case "PASS":
			reply(or(s.passReply, "230 Logged in"))
		case "FEAT":
			reply("502 FEAT not implemented")
		case "TYPE":
			reply("200 Type set to I")
		case "EPSV", "PASV":
			if data != nil {
				data.Close()
			}
			data, err = net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				reply("425 cannot open data connection")
				continue
			}
			port := data.Addr().(*net.TCPAddr).Port
			if cmd == "EPSV" {
				reply(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
			} else {
				reply(fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d)", port>>8, port&0xff))
			}
		case "RETR":
			if s.retrReply != "" {
				reply(s.retrReply)
				continue
			}
			if arg != "/robots.txt" || data == nil {
				reply("550 No such file")
				continue
			}
			reply("150 Opening BINARY mode data connection")
			dc, err := data.Accept()
			if err != nil {
				reply("425 no data connection")
				continue
			}
			dc.Write(s.body)
			dc.Close()
			data.Close()
			data = nil
			reply("226 Transfer complete")
		case "QUIT":
			reply("221 Goodbye")
			return
		default:
			reply("502 Command not implemented")
		}
	}
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
