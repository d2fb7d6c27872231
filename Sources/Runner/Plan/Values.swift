import Foundation
import ScenarioModel
import Trace

