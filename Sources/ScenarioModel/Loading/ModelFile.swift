import Basics
import Foundation
import Yams

extension ScenarioLoader {
    /// The model a file gives, for `groupsim import --model` and `inspect --model`: a scenario's
    /// (`store: model:`, or the newest of `store: models:`), a file with a top-level `model:`, a file that
    /// is only the model's mapping (`Note: { title: string }`), or an Xcode model (a `.xcdatamodeld`, one
    /// `.xcdatamodel` version, or its `contents` file; see `XcodeModel`).
    ///
    /// - Returns: the model, and what of an Xcode model was left out of it (empty for a scenario's).
    /// - Throws: ``ScenarioErrors`` naming the file, line and column of each problem.
    public static func model(contentsOf given: URL) throws(ScenarioErrors) -> (model: ModelDescription, notes: [String]) {
        let url = try XcodeModel.contentsFile(of: given) ?? given
        let file = displayPath(of: url)
        let text: String
        do {
            // Someone else's model: only a regular file (a link is followed first: one to a device or a
            // FIFO would never end), and never more than a scenario file may be.
            let resolved = url.resolvingSymlinksInPath()
            let attributes = try FileManager.default.attributesOfItem(atPath: resolved.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                    message: "the model file is no regular file (a device, a FIFO or a folder, or a link to one); give the model's own file.")])
            }
            guard (attributes[.size] as? Int ?? 0) <= Limits.fileBytes else { throw CocoaError(.fileReadTooLarge) }
            let handle = try FileHandle(forReadingFrom: resolved)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: Limits.fileBytes + 1) ?? Data()
            guard data.count <= Limits.fileBytes else { throw CocoaError(.fileReadTooLarge) }
            guard let decoded = String(data: data, encoding: .utf8) else { throw CocoaError(.fileReadInapplicableStringEncoding) }
            text = decoded
        } catch let error as ScenarioErrors {
            throw error
        } catch {
            throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                message: "the model file could not be read (\(error.localizedDescription)); give a scenario, a YAML file of the model or an Xcode model (.xcdatamodeld).")])
        }
        if XcodeModel.looksLikeXML(text) {
            var reader = XcodeModel(file: file)
            let model = try reader.decode(text)
            return (model, reader.notes)
        }
        return (try ScenarioDecoder(file: file).decodeModelFile(yaml: text).get(), [])
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
