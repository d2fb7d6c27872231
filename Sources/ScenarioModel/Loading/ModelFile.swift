import Basics
import Foundation
import Yams

extension ScenarioLoader {
    /// The model a file gives, for `groupsim import --model`: a scenario's (`store: model:`, or the newest
    /// of `store: models:`), a file with a top-level `model:`, or a file that is only the model's mapping
    /// (`Note: { title: string }`), in the scenario language either way.
    ///
    /// - Throws: ``ScenarioErrors`` naming the file, line and column of each problem.
    public static func model(contentsOf url: URL) throws(ScenarioErrors) -> ModelDescription {
        let file = displayPath(of: url)
        let text: String
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
            guard size <= Limits.fileBytes else { throw CocoaError(.fileReadTooLarge) }
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                message: "the model file could not be read (\(error.localizedDescription)); give a scenario or a YAML file of the model.")])
        }
        return try ScenarioDecoder(file: file).decodeModelFile(yaml: text).get()
    }
}

extension ScenarioDecoder {
    /// See `ScenarioLoader.model(contentsOf:)`.
    func decodeModelFile(yaml: String) -> Result<ModelDescription, ScenarioErrors> {
        decoder.lines = LineMap(yaml)
        if let refusal = YAMLGuard.check(yaml) {
            decoder.error(refusal.message, yamlLine: refusal.line, column: refusal.column)
            return .failure(ScenarioErrors(decoder.errors))
        }
        let root: YAMLNode
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                decoder.error("the file is empty; give a model, like Note: { title: string }.", line: 1, column: 1)
                return .failure(ScenarioErrors(decoder.errors))
            }
            root = YAMLNode(node)
        } catch {
            reportSyntaxError(error, in: yaml)
            return .failure(ScenarioErrors(decoder.errors))
        }
        var node = root
        if let store = root.pairs?.first(where: { $0.key.scalar == "store" })?.value { node = store }
        if let model = node.pairs?.first(where: { $0.key.scalar == "model" })?.value {
            node = model
        } else if let versions = node.pairs?.first(where: { $0.key.scalar == "models" })?.value, let newest = versions.pairs?.last?.value {
            node = newest
        }
        let model = decodeModel(node)
        if let model, decoder.errors.isEmpty { return .success(model) }
        if decoder.errors.isEmpty { decoder.error("the file gives no model.", line: 1, column: 1) }
        return .failure(ScenarioErrors(decoder.errors))
    }
}
