/// The scenario language's own example ("Shape"), verbatim: the contract says it must validate unchanged.
enum ContractExample {
    static let yaml = #"""
name: refresh-with-infinite-staleness     # unique, kebab-case; defaults to the file name
summary: One line that says what goes wrong for the user.
source: https://...                        # optional: where the bug was reported
seed: 7                                     # optional; the CLI's --seed overrides it
tags: [staleness, share]                    # optional, for selecting scenarios

store:                                      # the shared store (one per app group)
  group: group.example.notes                # app-group identifier -> its own container directory
  name: Notes                               # file is <container>/<name>.sqlite (+ -wal, -shm)
  model:
    Note:
      title: string
      body: string?                         # ? = optional
      pinned: bool = false                  # default value
      rank: int
      score: double
      created: date
      uid: uuid                             # a global identifier attribute (dedup across stores)
      tags: [Tag]                           # to-many relationship
    Tag:
      name: string
      note: Note?                           # to-one relationship (inverse inferred when unambiguous)

processes:                                  # each is its own OS process, named freely
  app:
    role: host                              # host | share | action | watch
    refresh: staleness                      # staleness | history | refetch | none
    staleness: -1                           # seconds; -1 = never expire (Core Data's default), 0 = always re-read
    trigger: darwin                         # darwin | activation | poll | manual   (when refresh runs)
  share:
    role: share

steps:                                      # run in order; each step is `<process>: <action>`
  - app: launch
  - app: { insert: Note, id: n1, set: { title: A, rank: 1 } }
  - app: save
  - app: { fetch: Note }                    # registers the objects in the app's view context
  - app: { read: n1, expect: { title: A }, now: true }   # fires the fault: n1 now holds A in memory
  - share: launch
  - share: { update: n1, set: { title: B } }
  - share: save                             # commits, then posts the save notification
  - share: exit
  - app: { read: n1, expect: { title: B }, within: 200ms }

variants:                                   # optional: run once per variant, each overriding settings
  stale-cache:   { app: { staleness: -1 }, expect: [stale-read] }
  fresh-cache:   { app: { staleness: 0 },  expect: pass }
  history:       { app: { refresh: history }, expect: pass }
  refetch-keep:  { app: { refresh: refetch }, expect: [stale-read] }   # registered objects keep old values
  refetch-reset: { app: { refresh: refetch, refetch: reset }, expect: pass }
"""#
}
