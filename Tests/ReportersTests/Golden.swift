import TestSupport

/// Golden files under `Tests/Golden/Reporters/`: a report must render byte for byte as recorded.
let golden = GoldenFiles("Reporters", testFile: #filePath)
