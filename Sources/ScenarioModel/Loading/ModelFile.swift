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
        func refused(_ reason: String) -> ScenarioErrors {
            ScenarioErrors([ScenarioError(file: file, line: 1, column: 1, message: reason)])
        }
        // Someone else's model, never more than a scenario file may be.
        let data: Data
        do {
            data = try UntrustedFile.data(url, limit: Limits.fileBytes)
        } catch {
            switch error {
            case .notRegular:
                throw refused("the model file is no regular file (a device, a FIFO or a folder, or a link to one); give the model's own file.")
            case .tooLarge:
                throw refused("the model file could not be read (The operation could not be completed. The item is too large.); "
                    + "give a scenario, a YAML file of the model or an Xcode model (.xcdatamodeld).")
            case .unreadable(let error):
                throw refused("the model file could not be read (\(error.localizedDescription)); give a scenario, a YAML file of the model or an Xcode model (.xcdatamodeld).")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw refused("the model file could not be read (it is not UTF-8 text); give a scenario, a YAML file of the model or an Xcode model (.xcdatamodeld).")
        }
        if XcodeModel.looksLikeXML(text) {
            var reader = XcodeModel(file: file)
            let model = try reader.decode(text)
            return (model, reader.notes)
        }
        return (try ModelDecoder(decoder: NodeDecoder(file: file)).decodeFile(yaml: text).get(), [])
    }
}

extension ModelDecoder {
    /// See `ScenarioLoader.model(contentsOf:)`: the model of a scenario's store, or of a file that is only a
    /// model, into `decoder`'s errors.
    func decodeFile(yaml: String) -> Result<ModelDescription, ScenarioErrors> {
        guard let root = decoder.compose(yaml, ifEmpty: "the file is empty; give a model, like Note: { title: string }.")
        else { return .failure(ScenarioErrors(decoder.errors)) }
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
