// This file imports Supervisor alone, so its names resolve unambiguously; ScenarioModel also has
// a `ProcessRole`, and the module `Supervisor` has an enum of the same name, which hides it.
import Supervisor

/// The lifecycle machine's role of a process.
typealias LifecycleRole = ProcessRole
