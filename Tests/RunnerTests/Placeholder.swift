// Placeholder so the test target builds while its layer is written; replaced by real tests.
import Testing
