// Supervisor: placeholder so the package builds while this layer is written; replaced by the real sources.
enum SupervisorPlaceholder {}
