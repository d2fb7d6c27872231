import Basics
import Foundation
import SharedStore
import Testing

@Suite struct FetchTests {
    @Test func refetchKeepsARegisteredObjectsOldValues() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let id = try context.insertNote("A")
        #expect(try context.title(id) == "A")

        try share.update(id, ["title": "B"])
        let ids = try context.fetch(FetchRequest(entity: "Note"))
        #expect(ids == [id])
        #expect(try context.title(id) == "A")
    }

    @Test func refetchAfterResetTakesNewValues() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let id = try context.insertNote("A")
        try share.update(id, ["title": "B"])
        context.reset()
        #expect(context.view.isEmpty, "a reset context shows nothing")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(id) == "B")
    }

    @Test func refetchWithShouldRefreshRefetchedObjectsTakesFetchedValues() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.shouldRefreshRefetchedObjects = true
        let id = try context.insertNote("A")
        #expect(try context.title(id) == "A")
        try share.update(id, ["title": "B"])
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(id) == "B")
    }

    @Test func predicateAndSortSelectAndOrderRows() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        for (title, rank) in [("a", 1), ("b", 5), ("c", 3), ("d", 4)] {
            try context.insert("Note", values: ["title": .string(title), "rank": .int(Int64(rank))])
        }
        try context.setValues(["pinned": true], for: context.insertedObjects[3])
        try context.save()
        context.reset()
        let ids = try context.fetch(FetchRequest(entity: "Note", predicate: "rank > 2 and not title == 'd'", sort: "-rank"))
        #expect(try ids.map { try context.title($0) } == ["b", "c"])
        let pinned = try context.fetch(FetchRequest(entity: "Note", predicate: "pinned == true or rank in [1]", sort: "title"))
        #expect(try pinned.map { try context.title($0) } == ["a", "d"])
        let none = try context.fetch(FetchRequest(entity: "Note", predicate: "(rank < 2 and rank > 3) or body != nil"))
        #expect(none.isEmpty)
    }

    /// `CONTAINS`, `BEGINSWITH`, `ENDSWITH` and the constants select the same rows in SQL (a fetch) as in
    /// memory (`evaluate`, what a count of the view uses), NULL matching no text operator.
    @Test func textOperatorsAndConstantsAgreeInSQLAndInMemory() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        for (title, body) in [("Groceries", "milk"), ("Taxes", nil), ("Grüße", "ß"), ("", "x")] as [(String, String?)] {
            try context.insert("Note", values: ["title": .string(title), "body": body.map(Value.string) ?? .null])
        }
        try context.save()
        let cases: [(String, [String])] = [
            ("title CONTAINS 'e'", ["Groceries", "Taxes", "Grüße"]),
            ("title contains 'ü'", ["Grüße"]),
            ("title BEGINSWITH 'Gr'", ["Groceries", "Grüße"]),
            ("title ENDSWITH 'es'", ["Groceries", "Taxes"]),
            ("title ENDSWITH ''", ["Groceries", "Taxes", "Grüße", ""]),
            ("body BEGINSWITH ''", ["Groceries", "Grüße", ""]),
            ("title CONTAINS 'g'", []),
            ("TRUEPREDICATE", ["Groceries", "Taxes", "Grüße", ""]),
            ("FALSEPREDICATE or title == 'Taxes'", ["Taxes"]),
            ("not FALSEPREDICATE and body ENDSWITH 'ß'", ["Grüße"]),
        ]
        for (text, expected) in cases {
            let predicate = try FetchPredicate(parsing: text)
            let fetched = try context.fetch(FetchRequest(entity: "Note", predicate: text, sort: "title"))
            let titles = try fetched.map { try context.title($0) ?? "?" }
            #expect(Set(titles) == Set(expected), "SQL: \(text)")
            let evaluated = try fetched.isEmpty ? [] : context.fetch(FetchRequest(entity: "Note"))
                .filter { predicate.evaluate(try context.values(of: $0)) }.map { try context.title($0) ?? "?" }
            #expect(Set(evaluated) == Set(expected), "in memory: \(text)")
        }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(parsing: "title CONTAINS 3") }
        #expect(throws: StoreError.self) { try context.fetch(FetchRequest(entity: "Note", predicate: "rank CONTAINS '3'")) }
    }

    @Test func predicateErrorsGiveTheColumn() throws {
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(parsing: "rank >") }
        do {
            _ = try FetchPredicate(parsing: "rank > 2 and (title == 'x'")
            Issue.record("expected a parse error")
        } catch {
            #expect(error.offset == 13, "the parenthesis never closed")
        }
        let context = try StoreFixture().open().viewContext
        do {
            _ = try context.fetch(FetchRequest(entity: "Note", predicate: "rank > 1 and colour == 'red'"))
            Issue.record("expected an unknown-attribute error")
        } catch {
            guard let predicateError = error.predicateError else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(predicateError.offset == 13)
            #expect(predicateError.message.contains("colour"))
        }
    }

    @Test func rerunningAFetchReplacesItsListInTheView() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let a = try context.insertNote("A")
        context.reset()
        _ = try context.fetch(FetchRequest(entity: "Note"))
        let b = try share.viewContext.insertNote("B")
        #expect(context.viewObjects(entity: "Note") == [a], "reading the view runs no query")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(context.viewObjects(entity: "Note") == [a, b])
    }

    @Test func aDeletedRowStaysInTheViewUntilRefetched() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let a = try context.insertNote("A")
        let remote = share.newBackgroundContext()
        try remote.delete(a)
        try remote.save()
        #expect(context.viewObjects(entity: "Note") == [a])
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(context.viewObjects(entity: "Note").isEmpty)
    }

    @Test func pendingInsertsAndDeletesShowInTheView() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let kept = try context.insertNote("kept")
        let gone = try context.insertNote("gone")
        try context.delete(gone)
        let fresh = try context.insert("Note", values: ["title": "new"])
        #expect(context.viewObjects(entity: "Note") == [kept, fresh])
        context.rollback()
        #expect(context.viewObjects(entity: "Note") == [kept, gone])
        #expect(try context.countInView(entity: "Note", where: "title == 'gone'") == 1)
    }
}

extension FetchTests {
    /// Core Data evaluates a fetch's predicate against an edited object's in-memory state: an unsaved
    /// edit brings an object into a filtered fetch, or takes it out, whatever its row holds.
    @Test func aFetchMatchesEditedObjectsByTheirUnsavedValues() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let context = app.viewContext
        let lowID = try context.insertNote("low", rank: 1)
        let highID = try context.insertNote("high", rank: 5)
        try context.setValues(["rank": .int(9)], for: lowID)
        try context.setValues(["rank": .int(0)], for: highID)
        let request = FetchRequest(entity: "Note", predicate: "rank > 2")
        #expect(try context.fetch(request) == [lowID], "the edits decide, not the rows")
        var storeOnly = request
        storeOnly.includesPendingChanges = false
        #expect(try context.fetch(storeOnly) == [highID], "without pending changes the rows decide")
    }
}
