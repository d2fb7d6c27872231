@testable import Runner
import Testing

@Suite struct WorkloadGeneratorTests {
    private func drain(_ generator: inout WorkloadGenerator) -> [WorkloadOperation] {
        var committed: [String] = []
        var operations: [WorkloadOperation] = []
        while let op = generator.next(committed: committed.sorted()) {
            operations.append(op)
            switch op.kind {
            case .insert: committed.append(op.id)
            case .delete: committed.removeAll { $0 == op.id }
            case .update, .read: break
            }
        }
        return operations
    }

    private func make(seed: UInt64) -> WorkloadGenerator {
        WorkloadGenerator(
            processes: ["app", "share"], mix: .init(insert: 1, update: 3, delete: 1, read: 5),
            rate: 500, durationNanos: 200_000_000, keys: 10, attribute: ("title", .string), seed: seed)
    }

    @Test func sameSeedGivesSameOperations() {
        var a = make(seed: 7)
        var b = make(seed: 7)
        #expect(drain(&a) == drain(&b))
    }

    @Test func differentSeedsGiveDifferentOperations() {
        var a = make(seed: 7)
        var b = make(seed: 8)
        #expect(drain(&a) != drain(&b))
    }

    @Test func rateTimesDurationOperationsAtEvenOffsets() {
        var generator = make(seed: 1)
        let operations = drain(&generator)
        #expect(operations.count == 100)
        #expect(operations[1].offsetNanos == 2_000_000)
    }

    @Test func onlyCommittedIdsAreUpdatedDeletedOrRead() {
        var generator = make(seed: 3)
        var committed: Set<String> = []
        while let op = generator.next(committed: committed.sorted()) {
            switch op.kind {
            case .insert:
                #expect(!committed.contains(op.id))
                committed.insert(op.id)
            case .delete:
                #expect(committed.contains(op.id))
                committed.remove(op.id)
            case .update, .read:
                #expect(committed.contains(op.id))
            }
        }
    }

    @Test func insertsNeverExceedKeys() {
        var generator = make(seed: 5)
        let inserts = drain(&generator).filter { $0.kind == .insert }.map(\.id)
        #expect(Set(inserts).count == 10)
        #expect(inserts.allSatisfy { Int($0.dropFirst())! <= 10 })
    }
    /// A second workload's inserts take ids no live object has: it goes on past what the first one left
    /// (inserting k1 again while it lives was a false `duplicate`, found by the mode probe's w01).
    @Test func freshIdsSkipTheOnesLiveInTheStore() {
        var generator = WorkloadGenerator(
            processes: ["share"], mix: .init(insert: 1, update: 0, delete: 0, read: 0),
            rate: 10, durationNanos: 500_000_000, keys: 50, attribute: ("title", .string), seed: 3)
        var committed = ["k1", "k2", "k3", "k5"]
        var inserted: [String] = []
        while let op = generator.next(committed: committed.sorted()) {
            inserted.append(op.id)
            committed.append(op.id)
        }
        #expect(inserted == ["k4", "k6", "k7", "k8", "k9"])
    }
    /// Ids another workload beside it inserts are not this one's fresh ids.
    @Test func freshIdsSkipTheReservedOnes() {
        var generator = WorkloadGenerator(
            processes: ["share"], mix: .init(insert: 1, update: 0, delete: 0, read: 0),
            rate: 10, durationNanos: 300_000_000, keys: 50, attribute: ("title", .string), seed: 3)
        generator.reserved = ["k1", "k2", "k4"]
        var inserted: [String] = []
        while let op = generator.next(committed: inserted.sorted()) { inserted.append(op.id) }
        #expect(inserted == ["k3", "k5", "k6"])
    }
}
