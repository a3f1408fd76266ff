import SwiftDiagnostics

/// Every error `@Injectable` reports, with the message a user reads.
enum InjectableDiagnostic: DiagnosticMessage {
    case notAType(kind: String)
    case alreadyInjectable(type: String)
    case noCallableInitializer(type: String, reason: String)
    case severalInitializers(type: String, count: Int)
    case severalInjectMarks(type: String)
    case argumentOnSharedLifetime(lifetime: String)
    case argumentOnMainActor
    case emptyName
    case nameNotLiteral
    case namedArgument
    case initializerLessVisible(initializer: String, access: String, type: String, typeAccess: String)
    case implicitInitializerLessVisible(type: String, typeAccess: String)

    var message: String {
        switch self {
        case .notAType(let kind):
            let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "@Injectable applies to a class, struct or actor, not to \(article) \(kind): "
                + (kind == "protocol"
                    ? "attach it to a type that conforms and list the protocol in 'as:'"
                    : "register an enum's value with builder.register(_:instance:)")
        case .alreadyInjectable(let type):
            return "'\(type)' already conforms to Injectable (by hand or through its superclass), "
                + "so @Injectable cannot give it a registration of its own; register it by hand"
        case .noCallableInitializer(let type, let reason):
            return "@Injectable found no initializer of '\(type)' that Graft can call: \(reason)"
        case .severalInitializers(let type, let count):
            return "'\(type)' has \(count) initializers Graft could call; mark the one it calls with @Inject"
        case .severalInjectMarks(let type):
            return "only one initializer of '\(type)' can be marked @Inject"
        case .argumentOnSharedLifetime(let lifetime):
            return "@Argument needs a transient registration: a \(lifetime) instance is shared, "
                + "so it cannot be made from each caller's arguments"
        case .argumentOnMainActor:
            return "@Argument is not supported on a @MainActor initializer: "
                + "register it by hand with a closure factory that takes arguments"
        case .emptyName:
            return "@Named needs a name: an empty name registers nothing a resolve can ask for"
        case .nameNotLiteral:
            return "@Named takes a string literal (\"v12\") or a ServiceName type (V12.self)"
        case .namedArgument:
            return
                "a parameter is either @Named (resolved from the container) or @Argument (passed by the caller), not both"
        case .initializerLessVisible(let initializer, let access, let type, let typeAccess):
            return "'\(initializer)' is \(access), less visible than \(typeAccess) '\(type)': "
                + "its registration would make instances for code that cannot call the initializer"
        case .implicitInitializerLessVisible(let type, let typeAccess):
            return "the implicit initializer of \(typeAccess) '\(type)' is internal: "
                + "declare a \(typeAccess) initializer for its registration to call"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAType: id = "notAType"
        case .alreadyInjectable: id = "alreadyInjectable"
        case .noCallableInitializer: id = "noCallableInitializer"
        case .severalInitializers: id = "severalInitializers"
        case .severalInjectMarks: id = "severalInjectMarks"
        case .argumentOnSharedLifetime: id = "argumentOnSharedLifetime"
        case .argumentOnMainActor: id = "argumentOnMainActor"
        case .emptyName: id = "emptyName"
        case .nameNotLiteral: id = "nameNotLiteral"
        case .namedArgument: id = "namedArgument"
        case .initializerLessVisible: id = "initializerLessVisible"
        case .implicitInitializerLessVisible: id = "implicitInitializerLessVisible"
        }
        return MessageID(domain: "GraftMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// A fix-it's label.
struct InjectableFixIt: FixItMessage {
    let message: String

    var fixItID: MessageID { MessageID(domain: "GraftMacros", id: message) }
}
