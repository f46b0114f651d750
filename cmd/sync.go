package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/config"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
)

func (a *app) newSyncCmd() *cobra.Command {
	var timeoutFlag string
	var fetchOnly, quiet bool
	c := &cobra.Command{
		Use:   "sync [REMOTE]",
		Short: "Publish your session through git and fetch your teammates'",
		Long: `Sync shares sessions through git itself, outside the branches, as git-bug shares bugs. It
commits your session directory (current-plan.md, the journal, the snapshots; nothing else) on
refs/gsd/sessions/<you> and pushes that one ref to REMOTE, and fetches every teammate's
refs/gsd/sessions/<user> into refs/gsd/remotes/REMOTE/sessions/<user>. gsd sessions then lists
their sessions beside this checkout's, and gsd resume USER takes one over. A ref whose name is
no user (refs/gsd/sessions/ann/x, Not_A_User) is never fetched, only named; a teammate whose
ref the remote no longer has is removed from gsd sessions.

REMOTE defaults to the current branch's upstream remote, else origin. Sync runs your own git
(credential helpers, ssh, every protocol), never prompts, and gives the whole sync --timeout
(else GSD_SYNC_TIMEOUT, else 30s; at least 1ms), after which git and every helper it started
are ended. It never touches the index, the working tree, HEAD, a branch or any other ref; a
remote that cannot be reached or refuses the push is one line on stderr, exit 1, and nothing
is lost.

Your machines are the ones that commit as you: a commit's author and committer email must be
your git identity (user.email, or GIT_COMMITTER_EMAIL; without one, <you>@gsd-sync.invalid),
so give your machines the same user.email. Your ref is taken only as far as you wrote it: a
version someone else committed is never merged; your session stays, theirs is kept as a
sync-foreign snapshot, and sync names who wrote it.

Each user writes only their own ref, so teammates never conflict. When you sync from two
machines, the one that finds the remote ahead merges: the journals are united event by event
(none lost, none twice, the same bytes whichever machine merges), the session recomputed from
both (each task as the machine that changed it last has it); when the two disagree (different
plans, different tasks in progress) both are kept as snapshots (sync-local, sync-remote) and
the one further along is current. A session that is not one gsd reads is never taken. A sync
with nothing new makes no commit, so two machines come to one commit and the ref stops moving.

What sync reads of a ref is capped, checked before anything is read whole or written: 1,000
files, 128 MiB in all, an 8 MiB session or snapshot and a 64 MiB journal; a version over them
is not merged (nor published from here). It fetches at most 1,000 users' refs, and gsd
sessions, gsd resume and the MCP server read at most 64 MiB of them in all.

To stop sharing: git push REMOTE --delete refs/gsd/sessions/<you>, and locally
git update-ref -d refs/gsd/sessions/<you>. See gsd help session, "Teams on many machines".`,
		Example: `  gsd sync
  gsd sync upstream --timeout 10s
  gsd sessions
  gsd resume ann`,
		Args: maxArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			// The one rule of every duration gsd reads, whichever way it is given.
			timeout, from, v := hydrate.DefaultSyncTimeout, "GSD_SYNC_TIMEOUT", a.getenv("GSD_SYNC_TIMEOUT")
			given := v != ""
			if c.Flags().Changed("timeout") {
				from, v, given = "--timeout", timeoutFlag, true
			}
			if given {
				d, err := config.ParseDuration(v)
				if err != nil {
					return usageError{fmt.Errorf("%s: %v", from, err)}
				}
				timeout = d
			}
			remote := ""
			if len(args) == 1 {
				remote = args[0]
			}
			env, dir, err := a.open()
			if err != nil {
				return err
			}
			if !teamsync.Available() {
				return fmt.Errorf("sync needs git, and there is none on PATH")
			}
			host, _ := os.Hostname()
			// An interrupt ends the sync as its time limit does: git and its helpers go too.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			res, err := env.Team().Sync(ctx, hydrate.SyncOptions{Remote: remote, Git: teamsync.ExecGit{Dir: dir},
				Timeout: timeout, Host: host, NoPush: fetchOnly})
			if res != nil && err != nil && !a.json {
				a.printSync(res, true)
			}
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.SyncOf(res))
			}
			if !quiet {
				a.printSync(res, false)
			}
			return nil
		},
	}
	c.Flags().StringVar(&timeoutFlag, "timeout", hydrate.DefaultSyncTimeout.String(), "give up on the whole sync after `DURATION`")
	c.Flags().BoolVar(&fetchOnly, "fetch-only", false, "fetch the teammates' sessions, publish nothing")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors and warnings")
	return c
}

// printSync says what gsd sync did; partial is a sync that failed after a local commit.
func (a *app) printSync(res *hydrate.SyncResult, partial bool) {
	for _, s := range res.Skipped {
		a.warn("%s: not gsd's, not published (only the session, the journal and snapshots are)", s)
	}
	for _, r := range res.NotRead {
		a.warn("%s on %s names no user: not fetched", r, res.Remote)
	}
	if f := res.Foreign; f != nil {
		kept := "nothing of it could be kept"
		if f.Snapshot != "" {
			kept = "theirs is kept as " + f.Snapshot
		}
		a.warn("%s on %s (%s) was not taken: %s; your session stays, %s", res.Ref, res.Remote, short(f.Commit), f.Why, kept)
	}
	if m := res.Merge; m != nil {
		switch {
		case m.Conflict != "":
			printf(a.stdout, "merged your session from another machine: %s; kept %s; the %s one is current\n", m.Conflict, strings.Join(res.Kept, " and "), m.Took)
		case m.Took == teamsync.TookMerged:
			printf(a.stdout, "merged your session from another machine: %d events from there, %d from here, statuses of both\n", m.OnlyRemote, m.OnlyLocal)
		case m.Took == teamsync.TookRemote:
			printf(a.stdout, "took your session as another machine published it (%d events from there)\n", m.OnlyRemote)
		}
	}
	for _, d := range res.Dropped {
		printf(a.stdout, "deleted %s on %s: a ref nested under yours, which kept yours from being pushed\n", d, res.Remote)
	}
	if res.Replaced != "" {
		printf(a.stdout, "replaced what %s held on %s (%s, no commit gsd sync made)\n", res.Ref, res.Remote, short(res.Replaced))
	}
	if partial {
		return
	}
	switch {
	case res.NoSession:
		printf(a.stdout, "no session to publish\n")
	case res.UpToDate:
		printf(a.stdout, "%s (%s) is up to date on %s\n", res.Ref, short(res.Commit), res.Remote)
	case res.Pushed:
		printf(a.stdout, "published %s (%s) to %s\n", res.Ref, short(res.Commit), res.Remote)
	}
	for _, u := range res.Gone {
		printf(a.stdout, "%s no longer shares a session on %s: removed from gsd sessions\n", u, res.Remote)
	}
	who := "teammates'"
	if res.Teammates == 1 {
		who = "teammate's"
	}
	printf(a.stdout, "fetched %d %s sessions from %s (gsd sessions lists them)\n", res.Teammates, who, res.Remote)
	for _, h := range res.TakenOver {
		on := ""
		if h.Host != "" {
			on = " on " + h.Host
		}
		printf(a.stdout, "your session was taken over by %s%s at %s\n", h.By, on, h.Time.Format(time.RFC3339))
	}
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
