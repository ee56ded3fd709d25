package lint

import "strings"

// SARIF is a SARIF 2.1.0 log: as much of it as code-scanning tools read.
// Its JSON form is what "robotstxt lint --sarif" prints.
type SARIF struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is the one run of a SARIF log: the tool (its rules are the code
// table) and the results (the findings).
type SARIFRun struct {
	Tool    SARIFTool     `json:"tool"`
	Results []SARIFResult `json:"results"`
}

// SARIFTool names the tool of a run.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver is the linter: its name, version and rules.
type SARIFDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []SARIFRule `json:"rules"`
}

// SARIFRule is one code of the table.
type SARIFRule struct {
	ID                   string          `json:"id"`
	ShortDescription     SARIFText       `json:"shortDescription"`
	Help                 SARIFText       `json:"help"`
	DefaultConfiguration SARIFConfig     `json:"defaultConfiguration"`
	Properties           SARIFProperties `json:"properties"`
}

// SARIFProperties are a rule's own properties: the dialects it affects.
type SARIFProperties struct {
	Dialects []string `json:"dialects"`
}

// SARIFText is a message.
type SARIFText struct {
	Text string `json:"text"`
}

// SARIFConfig is a rule's level.
type SARIFConfig struct {
	Level string `json:"level"`
}

// SARIFResult is one finding.
type SARIFResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   SARIFText       `json:"message"`
	Locations []SARIFLocation `json:"locations"`
}

// SARIFLocation is where a finding is.
type SARIFLocation struct {
	PhysicalLocation SARIFPhysical `json:"physicalLocation"`
}

// SARIFPhysical is a file and a place in it.
type SARIFPhysical struct {
	ArtifactLocation SARIFArtifact `json:"artifactLocation"`
	Region           SARIFRegion   `json:"region"`
}

// SARIFArtifact names a file.
type SARIFArtifact struct {
	URI string `json:"uri"`
}

// SARIFRegion is a line and column, both 1-based.
type SARIFRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// sarifLevel maps a severity to a SARIF level ("info" is "note").
func sarifLevel(sev string) string {
	if sev == SeverityInfo {
		return "note"
	}
	return sev
}

// NewSARIF returns the SARIF 2.1.0 log of findings, the tool named as
// "robotstxt lint" at version, every code of the table as a rule. A finding
// of the file "standard input" is located in "stdin".
func NewSARIF(findings []Finding, version string) *SARIF {
	d := SARIFDriver{Name: "robotstxt lint", Version: version, InformationURI: "https://github.com/seed53c283f5/robotstxt"}
	for _, c := range codes {
		d.Rules = append(d.Rules, SARIFRule{ID: c.Code, ShortDescription: SARIFText{c.Summary},
			Help: SARIFText{"Fix: " + c.Fix + "."}, DefaultConfiguration: SARIFConfig{sarifLevel(c.Severity)},
			Properties: SARIFProperties{Dialects: c.Dialects}})
	}
	run := SARIFRun{Tool: SARIFTool{d}, Results: []SARIFResult{}}
	for _, f := range findings {
		uri := f.File
		if uri == "standard input" {
			uri = "stdin"
		}
		msg := f.Message
		if len(f.Dialects) > 0 {
			msg += " (dialects: " + strings.Join(f.Dialects, ", ") + ")"
		}
		run.Results = append(run.Results, SARIFResult{RuleID: f.Code, RuleIndex: codeIndex[f.Code], Level: sarifLevel(f.Severity),
			Message: SARIFText{msg}, Locations: []SARIFLocation{{SARIFPhysical{SARIFArtifact{uri}, SARIFRegion{f.Line, f.Column}}}}})
	}
	return &SARIF{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []SARIFRun{run}}
}
