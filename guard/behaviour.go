package guard

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt"
)

// behaviours holds a policy's tables by behaviour class. Until the
// catalogue has behaviour classes (robotstxt.Behaviour), a [behaviour.NAME]
// table is an error that says so.
type behaviours struct{}

func (p *Policy) addBehaviour(name string, _ Actions) error {
	return fmt.Errorf("behaviour %q: this build's catalogue has no behaviour classes yet", name)
}

func (p *Policy) behaviourAction(*robotstxt.Crawler, Outcome) Action { return 0 }

func (p *Policy) behaviourTables() []Actions { return nil }
