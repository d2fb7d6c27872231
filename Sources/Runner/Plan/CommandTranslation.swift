import Agent
import ScenarioModel

extension ScenarioRunner {
    /// The agent command for a step the process performs (an insert with the model's defaults filled
    /// in), or nil for the runner's steps (lifecycles, the system's work, control steps, a control's tap).
    func command(for step: Step, on slot: ProcessSlot) -> AgentCommand? {
        guard step.isPerformedByProcess else { return nil }
        if case .insert(let entity, let id, let values) = step {
            let model = plan.run.store.model(version: slot.modelVersion)
            let filled = model.entity(named: entity)?.valuesForInsert(objectID: id, explicit: values) ?? values
            return .perform(.insert(entity: entity, id: id, values: filled))
        }
        return .perform(step)
    }
}
